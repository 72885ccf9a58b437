"""Demo engine: 中文注释 & <tags>."""
def run(graph):
    return [n for n in graph if n.ready]  # 就绪

x5 = 5
x6 = 6
x7 = 7
x8 = 8
x9 = 9
x10 = 10
x11 = 11
x12 = 12
x13 = 13
x14 = 14
x15 = 15
x16 = 16
x17 = 17
x18 = 18
x19 = 19
x20 = 20

"""A demo engine."""


class Engine:
    def run(self, graph):
        ready = list(graph)
        while ready:
            ready.pop()
        return None

def run():
    return 1


def stop():
    return 0

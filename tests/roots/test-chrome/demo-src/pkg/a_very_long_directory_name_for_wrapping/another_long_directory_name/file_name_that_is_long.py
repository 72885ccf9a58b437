"""A module with a long path."""


def run():
    return None

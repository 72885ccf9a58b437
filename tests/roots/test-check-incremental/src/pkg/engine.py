"""A tiny engine for the check's tests."""


class Engine:
    def run(self, steps):
        done = 0
        for _ in range(steps):
            done += 1
        return done

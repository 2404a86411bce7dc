class Launcher:  # want `^GL101 module defines no server`
    def start(self):
        return 1


def helper():
    return 1


# A launcher class gymlint does not follow: the module may start a server,
# so GL101 judges it.
if __name__ == "__main__":
    Launcher().start()

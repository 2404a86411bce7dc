class Launcher:
    def start(self):
        return 1


def helper():
    return 1


# The launcher may start a server as far as gymlint can tell: the exemption
# is what skips the module.
if __name__ == "__main__":
    Launcher().start()

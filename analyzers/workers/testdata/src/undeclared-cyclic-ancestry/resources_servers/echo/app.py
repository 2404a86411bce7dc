from nemo_gym.base_resources_server import SimpleResourcesServer


class Tools(Helpers):  # want "GL012 class Tools is its own ancestor .Tools.Helpers., Helpers.Tools... no method resolution order.*NameError"
    pass


class Helpers(Tools):  # related "class Helpers is on the same cycle"
    pass


# Python never creates this class; GL101 cannot look its override up
# through the cycle, so it says nothing.
class EchoServer(Tools, SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()

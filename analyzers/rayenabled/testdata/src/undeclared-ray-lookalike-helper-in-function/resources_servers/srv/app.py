from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    def verify(self, body):
        import helpers
        return helpers.go(body)


if __name__ == "__main__":
    Srv.run_webserver()

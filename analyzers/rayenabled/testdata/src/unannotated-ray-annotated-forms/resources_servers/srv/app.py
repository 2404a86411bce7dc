from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import typing

import ray


class Srv(SimpleResourcesServer):
    ray_enabled: typing.ClassVar[bool] = True


if __name__ == "__main__":
    Srv.run_webserver()

from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Settings:
    ray_enabled = False


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv"
    def setup(self):
        self.ray_enabled = False
        self.ray_enabled_flag = True
        self.config.ray_enabled
        setattr(self, "other", True)
        setattr(self, "ray_enabled", False)


class Other(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    def setup(self):
        self.ray_enabled = True

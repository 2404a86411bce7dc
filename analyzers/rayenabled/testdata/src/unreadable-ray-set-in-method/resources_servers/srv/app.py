from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray  # related "Ray is used here: imports ray"


class Srv(SimpleResourcesServer):  # related "the server class is Srv"
    def model_post_init(self, ctx):
        self.ray_enabled = True  # want "GL203 ray_enabled is set in function model_post_init \\(`self.ray_enabled = ...`\\), which the server supervisor does not read.* help: write `ray_enabled: ClassVar\\[bool\\] = True` in the body of Srv"


if __name__ == "__main__":
    Srv.run_webserver()

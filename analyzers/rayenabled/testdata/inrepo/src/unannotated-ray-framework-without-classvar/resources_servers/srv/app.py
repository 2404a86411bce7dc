from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 .*no ancestor declares it a ClassVar: pydantic raises PydanticUserError at import help: write `ray_enabled: ClassVar\\[bool\\] = True`"


if __name__ == "__main__":
    Srv.run_webserver()

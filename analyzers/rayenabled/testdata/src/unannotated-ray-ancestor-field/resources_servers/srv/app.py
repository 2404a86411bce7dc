import ray
from resources_servers.base_srv.base import RayBase


class Srv(RayBase):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class Srv .*no ancestor declares it a ClassVar: pydantic raises PydanticUserError at import.* help: write `ray_enabled: ClassVar\\[bool\\] = True`"


if __name__ == "__main__":
    Srv.run_webserver()

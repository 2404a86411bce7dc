import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 .*no ancestor declares it a ClassVar.* help: write `ray_enabled: ClassVar\\[bool\\] = True`"

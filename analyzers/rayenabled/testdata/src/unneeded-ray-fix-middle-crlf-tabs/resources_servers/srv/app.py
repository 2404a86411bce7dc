from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
	timeout: ClassVar[int] = 5
	ray_enabled: ClassVar[bool] = (  # want "GL205 server class Srv declares ray_enabled = True"
		True
	)  # a comment that goes with it
	retries: ClassVar[int] = 2


if __name__ == "__main__":
	Srv.run_webserver()
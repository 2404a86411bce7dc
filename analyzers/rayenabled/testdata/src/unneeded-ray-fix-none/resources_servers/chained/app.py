from nemo_gym.base_resources_server import SimpleResourcesServer


class Chained(SimpleResourcesServer):
    timeout = 5
    ray_enabled = scaled = True  # want "GL205 server class Chained declares ray_enabled = True" "GL204 `ray_enabled = True` in server class Chained has no annotation"


if __name__ == "__main__":
    Chained.run_webserver()

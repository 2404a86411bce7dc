from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want "GL201 .*declares ray_enabled = False but uses Ray"
    ray_enabled = other = False  # want "GL204 `ray_enabled = False` in server class Srv has no annotation"


if __name__ == "__main__":
    Srv.run_webserver()

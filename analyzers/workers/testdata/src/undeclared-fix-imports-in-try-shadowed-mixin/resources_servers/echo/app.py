try:
    from nemo_gym.base_resources_server import SimpleResourcesServer
except ImportError:
    raise


class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state"


class EchoServer(SimpleResourcesServer, RefuseMixin):  # want "GL101 server class EchoServer has neither"
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()

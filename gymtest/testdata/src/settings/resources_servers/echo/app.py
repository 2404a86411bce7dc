from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.num_workers > 1:
            raise RuntimeError("one worker")  # want "GL103 EchoServer.model_post_init raises on the worker count"

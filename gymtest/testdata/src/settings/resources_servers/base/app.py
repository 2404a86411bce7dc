from nemo_gym.base_resources_server import SimpleResourcesServer


class BaseServer(SimpleResourcesServer):
    def model_post_init(self, context):
        assert self.config.num_workers == 1

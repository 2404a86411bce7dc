from nemo_gym.base_resources_server import SimpleResourcesServer


class QuizBase(SimpleResourcesServer):
    def model_post_init(self, context):
        assert self.config.num_workers in (None, 1)  # want "GL103"

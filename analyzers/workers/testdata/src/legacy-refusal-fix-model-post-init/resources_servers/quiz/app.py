from nemo_gym.base_resources_server import SimpleResourcesServer


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    def model_post_init(self, context):
        super().model_post_init(context)
        if self.config.num_workers and self.config.num_workers > 1:
            raise RuntimeError("quiz supports one worker")  # want "GL103 QuizServer.model_post_init raises on the worker count"
        self._load()


if __name__ == "__main__":
    QuizServer.run_webserver()

from nemo_gym.base_resources_server import SimpleResourcesServer


class QuizServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.scoring == "streak":
            return "The streak counter lives in this process."
        return None


if __name__ == "__main__":
    QuizServer.run_webserver()

"""Starts the model weights locally and then serves them like BigModel."""

from responses_api_models.big_model.app import BigModel


class LocalBigModel(BigModel):
    checkpoint_dir: str = "/models/big-model-8b"
    tensor_parallel_size: int = 1

    def model_post_init(self, context: object) -> None:
        self.base_urls = [f"http://127.0.0.1:{8100 + rank}/v1" for rank in range(self.tensor_parallel_size)]


if __name__ == "__main__":
    LocalBigModel.run_webserver()

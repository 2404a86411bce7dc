from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel


class VLLMModel(SimpleResponsesAPIModel):
    pass


if __name__ == "__main__":
    VLLMModel.run_webserver()

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel


class OpenAIModel(SimpleResponsesAPIModel):
    pass


if __name__ == "__main__":
    OpenAIModel.run_webserver()

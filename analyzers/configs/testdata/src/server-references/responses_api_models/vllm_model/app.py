from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel


class Model(SimpleResponsesAPIModel):
    pass


if __name__ == "__main__":
    Model.run_webserver()

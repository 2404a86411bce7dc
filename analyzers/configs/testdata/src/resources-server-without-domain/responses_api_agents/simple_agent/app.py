from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent


class SimpleAgent(SimpleResponsesAPIAgent):
    pass


if __name__ == "__main__":
    SimpleAgent.run_webserver()

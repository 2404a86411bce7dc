from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent


class Agent(SimpleResponsesAPIAgent):
    pass


if __name__ == "__main__":
    Agent.run_webserver()

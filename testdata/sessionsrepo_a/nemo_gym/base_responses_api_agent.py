from nemo_gym.server_utils import SimpleServer


class SimpleResponsesAPIAgent(SimpleServer):
    pass

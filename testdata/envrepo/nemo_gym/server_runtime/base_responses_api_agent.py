"""Agents drive a model through a resources server's tools."""

from nemo_gym.server_runtime.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIAgent(BaseServer):
    pass


class SimpleResponsesAPIAgent(BaseResponsesAPIAgent, SimpleServer):
    pass

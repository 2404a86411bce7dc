"""Model servers answer the Responses API."""

from nemo_gym.server_runtime.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIModel(BaseServer):
    pass


class SimpleResponsesAPIModel(BaseResponsesAPIModel, SimpleServer):
    pass

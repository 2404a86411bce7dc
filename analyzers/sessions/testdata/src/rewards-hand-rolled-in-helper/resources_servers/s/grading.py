"""Imported for its side effects only; its response is still the server's."""

from nemo_gym.verify_responses import BaseVerifyResponse


class GradedResponse(BaseVerifyResponse):  # related "class GradedResponse is a BaseVerifyResponse"
    reward_components: dict[str, float]  # want "GL314 GradedResponse declares reward_components"

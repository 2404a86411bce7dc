# Nothing imports this module: it is not the server's, so nothing is reported.
from nemo_gym.verify_responses import BaseVerifyResponse


class DraftResponse(BaseVerifyResponse):
    reward_components: dict[str, float]

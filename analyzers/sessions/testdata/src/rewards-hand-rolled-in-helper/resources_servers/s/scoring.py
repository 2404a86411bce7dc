from nemo_gym.verify_responses import BaseVerifyResponse

from resources_servers.s.weights import WEIGHTS


class ScoredResponse(BaseVerifyResponse):  # related "class ScoredResponse is a BaseVerifyResponse"
    reward_components: dict[str, float] = {}  # want "GL314 ScoredResponse declares reward_components on a BaseVerifyResponse subclass"

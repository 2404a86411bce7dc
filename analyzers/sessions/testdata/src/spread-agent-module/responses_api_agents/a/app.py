from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


def lost(body):
    return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("gone"))

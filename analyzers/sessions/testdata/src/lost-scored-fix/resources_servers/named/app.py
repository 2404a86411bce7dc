from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# No spread: the request's fields are named one by one.
class Named(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.named[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.named:
            return BaseVerifyResponse(responses_create_params=body.responses_create_params, response=body.response, reward=0.0)  # want "GL306 Named.verify returns a reward"
        return BaseVerifyResponse(responses_create_params=body.responses_create_params, response=body.response, reward=1.0)


if __name__ == "__main__":
    Named.run_webserver()

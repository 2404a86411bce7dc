from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse
from pydantic import Field


class WeatherVerifyResponse(BaseVerifyResponse):
    expected_weather: str = Field(description="what the tool should have said")


# The raise would become a masked sample of a class that requires a field
# the sample does not give: no fix.
class Weather(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.calls[request.session[SESSION_ID_KEY]] = []  # want "GL322"

    async def verify(self, request: Request, body):
        calls = self.calls.get(request.session[SESSION_ID_KEY])
        if calls is None:
            raise HTTPException(status_code=400, detail="no calls")  # want "GL306 Weather.verify raises HTTPException\\(400\\)"
        return WeatherVerifyResponse(**body.model_dump(), reward=float(bool(calls)), expected_weather="sunny")


if __name__ == "__main__":
    Weather.run_webserver()

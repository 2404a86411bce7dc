from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


class WeatherVerifyResponse(BaseVerifyResponse):
    expected_weather: str
    tool_call_seen: bool = False


# The response class requires a field that neither the request's dump nor
# the lost-session fields give: the masked sample would fail validation
# (HTTP 500). No fix.
class Weather(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.calls[request.session[SESSION_ID_KEY]] = []  # want "GL322"

    async def verify(self, request: Request, body) -> WeatherVerifyResponse:  # want "GL307 Weather.verify reads the per-session state self.calls"
        calls = self.calls.get(request.session[SESSION_ID_KEY], [])
        return WeatherVerifyResponse(**body.model_dump(), reward=float(bool(calls)), expected_weather="sunny")


if __name__ == "__main__":
    Weather.run_webserver()

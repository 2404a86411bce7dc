from fastapi import Request
from nemo_gym.base_resources_server import BaseSeedSessionRequest, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


# A sandbox that verify stops: the override pops it after a TODO that
# says to stop it first (unsafe). Tabs and CRLF line endings are kept.
class Box(SimpleResourcesServer):  # want "GL317 Box keeps per-session state" "GL302 Box"
	async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
		self.boxes.setdefault(request.session[SESSION_ID_KEY], await self.provider.start())
		return None

	async def verify(self, request: Request, body):
		box = self.boxes.pop(request.session[SESSION_ID_KEY], None)
		if box is None:
			return body.model_dump() | lost_session_verification("gone")
		await box.shutdown()
		return {"reward": 1.0}


if __name__ == "__main__":
	Box.run_webserver()

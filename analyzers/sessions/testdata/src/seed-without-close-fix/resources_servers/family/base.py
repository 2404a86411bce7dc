from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSeedSessionRequest
from nemo_gym.base_resources_server import SimpleResourcesServer


# Two served servers share the base's seed and its state: one close, in
# the base.
class Puzzle(SimpleResourcesServer):  # want "GL302 Sudoku, Kakuro .seed_session of Puzzle. keep per-session state"
	async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest):
		self.grids.setdefault(body.resources_session_id, self.make(body))
		return None

from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSeedSessionRequest, SimpleResourcesServer


# Tabs and CRLF line endings are kept.
class Tabbed(SimpleResourcesServer):
	async def seed_session(self, body: ResourcesSeedSessionRequest):
		self.games.setdefault(body.resources_session_id, [])
		return None

	async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Tabbed"
		del self.games[body.resources_session_id]


if __name__ == "__main__":
	Tabbed.run_webserver()

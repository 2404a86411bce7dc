from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer


# The framework has no ResourcesSessionFences (nor the requests): the
# fixes of GL302 and GL303, which write the framework's fences, are not
# offered.
class Keeps(SimpleResourcesServer):  # want "GL302 Keeps keeps per-session state"
    async def seed_session(self, request: Request, body):
        self.games.setdefault(body.resources_session_id, [])
        return None


class Closes(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.games.setdefault(body.resources_session_id, [])
        return None

    async def close_resources_session(self, body):  # want "GL303 Closes.close_resources_session releases"
        self.games.pop(body.resources_session_id, None)


if __name__ == "__main__":
    Keeps.run_webserver()

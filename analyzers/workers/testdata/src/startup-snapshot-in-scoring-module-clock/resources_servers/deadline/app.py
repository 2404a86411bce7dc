from datetime import datetime

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


STARTED_AT = datetime.now()  # related "STARTED_AT is measured here"


class DeadlineServer(SimpleResourcesServer):
    async def verify(self, body):
        late = body.submitted_at > STARTED_AT  # want `^GL113 DeadlineServer.verify compares against STARTED_AT, measured once per worker at module scope of resources_servers/deadline/app.py by datetime.datetime.now\(\)`
        return {"reward": 0.0 if late else 1.0}


if __name__ == "__main__":
    DeadlineServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = DeadlineServer.run_webserver()  # related "module-level app of resources_servers/deadline/app.py"

from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Lab(SimpleResourcesServer):  # want "GL302"
    def setup_webserver(self):
        app = super().setup_webserver()

        @app.post("/measure")
        async def measure(request: Request):
            state = self.labs.get(request.session[SESSION_ID_KEY])
            if state is None:
                raise HTTPException(status_code=400, detail="no lab")  # want `GL309 measure \(in Lab.setup_webserver\) raises HTTP 400 when the session's state self.labs is missing`
            return state

        async def reset_probe(request: Request):
            if request.session[SESSION_ID_KEY] not in self.labs:
                return "no lab"  # want `GL309 reset_probe \(in Lab.setup_webserver\) answers with the string "no lab"`
            return "ok"

        probe = reset_probe
        app.add_api_route("/probe", probe, methods=["POST"])
        return app

    async def seed_session(self, request: Request, body):
        self.labs[request.session[SESSION_ID_KEY]] = {"t": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"


if __name__ == "__main__":
    Lab.run_webserver()

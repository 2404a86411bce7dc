from fastapi import FastAPI
from nemo_gym.base_resources_server import SimpleResourcesServer


class Direct(SimpleResourcesServer):
    # The framework has no register_protocol_routes: no finding.
    def setup_webserver(self):
        return FastAPI()

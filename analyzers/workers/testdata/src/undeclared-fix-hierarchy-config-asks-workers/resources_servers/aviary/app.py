from nemo_gym.base_resources_server import SimpleResourcesServer


class AviaryEnvServer(SimpleResourcesServer):  # want "GL101 server classes AviaryEnvServer, AviaryTaskServer have neither"  # no fix: GSM8kServer, which would inherit the override, is asked for 4 workers
    """Environments are kept in memory by the env_id in the request body."""

    async def step(self, body):
        return body


class AviaryTaskServer(SimpleResourcesServer):
    async def verify(self, body):
        return body

from nemo_gym.base_resources_server import SimpleResourcesServer


class S(SimpleResourcesServer):
    async def close_resources_session(self, body):  # want "GL303"
        self.envs.pop(body.resources_session_id, None)
        self.wall.fence(body.resources_session_id, None)


if __name__ == "__main__":
    S.run_webserver()

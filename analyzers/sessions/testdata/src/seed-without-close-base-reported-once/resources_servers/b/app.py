from resources_servers.s.base import Base


class B(Base):
    async def close_resources_session(self, body):  # want "GL303 B.close_resources_session releases the session's"
        self.envs.pop(body.resources_session_id, None)


if __name__ == "__main__":
    B.run_webserver()

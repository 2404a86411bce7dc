from resources_servers.s.base import Base


class Alpha(Base):
    pass


if __name__ == "__main__":
    Alpha.run_webserver()

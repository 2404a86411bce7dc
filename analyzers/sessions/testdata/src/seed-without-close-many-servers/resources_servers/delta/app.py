from resources_servers.s.base import Base


class Delta(Base):
    pass


if __name__ == "__main__":
    Delta.run_webserver()

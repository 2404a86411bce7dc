from resources_servers.s.base import Base


class Charlie(Base):
    pass


if __name__ == "__main__":
    Charlie.run_webserver()

from resources_servers.s.base import Base


class Bravo(Base):
    pass


if __name__ == "__main__":
    Bravo.run_webserver()

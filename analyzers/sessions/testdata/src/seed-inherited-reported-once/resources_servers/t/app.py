from resources_servers.s.base import Base


class T2(Base):
    pass


if __name__ == "__main__":
    T2.run_webserver()

from resources_servers.s.base import Base


class C(Base):  # related "server C inherits this seed_session and has no close"
    pass


if __name__ == "__main__":
    C.run_webserver()

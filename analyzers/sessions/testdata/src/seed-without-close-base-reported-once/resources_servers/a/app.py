from resources_servers.s.base import Base


class A(Base):  # related "server A inherits this seed_session and has no close"
    pass


if __name__ == "__main__":
    A.run_webserver()

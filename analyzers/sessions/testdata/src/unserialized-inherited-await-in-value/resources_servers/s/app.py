from resources_servers.s.base import Base


class S(Base):  # related "server S inherits this seed_session"
    pass


if __name__ == "__main__":
    S.run_webserver()

from base import Base


class S(Base):  # related "server S inherits this seed_session"
    pass


class T(Base):
    pass


if __name__ == "__main__":
    S.run_webserver()

"""The calculator environment of the pool."""

from resources_servers.env_pool.app import EnvPoolServer


class CalcPoolServer(EnvPoolServer):
    pass


if __name__ == "__main__":
    CalcPoolServer.run_webserver()

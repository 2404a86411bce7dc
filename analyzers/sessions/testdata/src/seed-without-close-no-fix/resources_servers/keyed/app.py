from resources_servers.s.base import Keyed


if __name__ == "__main__":
    Keyed.run_webserver()

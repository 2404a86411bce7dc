from resources_servers.s.base import Shared


if __name__ == "__main__":
    Shared.run_webserver()

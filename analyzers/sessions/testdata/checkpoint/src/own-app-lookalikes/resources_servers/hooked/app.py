from resources_servers.s.base import Hooked


if __name__ == "__main__":
    Hooked.run_webserver()

from resources_servers.s.base import Extends


if __name__ == "__main__":
    Extends.run_webserver()

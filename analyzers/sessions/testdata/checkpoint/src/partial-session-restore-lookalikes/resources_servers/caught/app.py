from resources_servers.s.base import Caught


if __name__ == "__main__":
    Caught.run_webserver()

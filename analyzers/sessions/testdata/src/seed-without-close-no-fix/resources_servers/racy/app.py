from resources_servers.s.base import Racy


if __name__ == "__main__":
    Racy.run_webserver()

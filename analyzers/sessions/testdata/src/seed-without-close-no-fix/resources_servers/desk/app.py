from resources_servers.s.base import Desk


if __name__ == "__main__":
    Desk.run_webserver()

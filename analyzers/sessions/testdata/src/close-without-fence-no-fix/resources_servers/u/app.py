from resources_servers.s.app import Racy


if __name__ == "__main__":
    Racy.run_webserver()

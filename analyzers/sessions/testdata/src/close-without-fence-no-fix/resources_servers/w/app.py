from resources_servers.s.app import Taken


if __name__ == "__main__":
    Taken.run_webserver()

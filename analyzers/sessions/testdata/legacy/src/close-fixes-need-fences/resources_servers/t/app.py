from resources_servers.s.app import Closes


if __name__ == "__main__":
    Closes.run_webserver()

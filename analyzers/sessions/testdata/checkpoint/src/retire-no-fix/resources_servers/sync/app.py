from resources_servers.s.base import Sync


if __name__ == "__main__":
    Sync.run_webserver()

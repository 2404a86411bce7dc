from resources_servers.s.base import Sandboxes


if __name__ == "__main__":
    Sandboxes.run_webserver()

from resources_servers.s.base import Module


if __name__ == "__main__":
    Module.run_webserver()

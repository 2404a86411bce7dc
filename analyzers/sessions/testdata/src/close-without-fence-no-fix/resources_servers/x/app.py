from resources_servers.s.app import Closer


if __name__ == "__main__":
    Closer.run_webserver()

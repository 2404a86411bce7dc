from resources_servers.s.base import Neither


if __name__ == "__main__":
    Neither.run_webserver()

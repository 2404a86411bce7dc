from resources_servers.s.base import Both


if __name__ == "__main__":
    Both.run_webserver()

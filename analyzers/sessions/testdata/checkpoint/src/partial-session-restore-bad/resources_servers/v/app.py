from resources_servers.s.base import V


if __name__ == "__main__":
    V.run_webserver()

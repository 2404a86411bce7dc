from resources_servers.s.base import T


if __name__ == "__main__":
    T.run_webserver()

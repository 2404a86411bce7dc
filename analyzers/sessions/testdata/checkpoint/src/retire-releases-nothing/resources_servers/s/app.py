from resources_servers.s.base import S


if __name__ == "__main__":
    S.run_webserver()

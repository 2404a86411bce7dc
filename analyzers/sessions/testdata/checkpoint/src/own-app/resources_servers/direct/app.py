from resources_servers.s.base import Direct


if __name__ == "__main__":
    Direct.run_webserver()

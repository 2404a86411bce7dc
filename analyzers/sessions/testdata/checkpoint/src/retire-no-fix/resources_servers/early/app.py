from resources_servers.s.base import Early


if __name__ == "__main__":
    Early.run_webserver()

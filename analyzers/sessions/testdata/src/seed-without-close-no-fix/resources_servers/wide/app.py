from resources_servers.s.base import Wide


if __name__ == "__main__":
    Wide.run_webserver()

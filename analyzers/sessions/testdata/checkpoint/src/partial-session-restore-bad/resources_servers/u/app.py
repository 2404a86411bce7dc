from resources_servers.s.base import U


if __name__ == "__main__":
    U.run_webserver()

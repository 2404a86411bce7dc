from resources_servers.s.base import Unknown


if __name__ == "__main__":
    Unknown.run_webserver()

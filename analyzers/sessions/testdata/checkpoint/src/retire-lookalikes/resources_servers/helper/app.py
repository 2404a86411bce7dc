from resources_servers.s.base import Helper


if __name__ == "__main__":
    Helper.run_webserver()

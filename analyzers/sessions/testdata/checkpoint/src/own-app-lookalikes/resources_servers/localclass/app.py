from resources_servers.s.base import LocalClass


if __name__ == "__main__":
    LocalClass.run_webserver()

from resources_servers.s.base import AdHoc


if __name__ == "__main__":
    AdHoc.run_webserver()

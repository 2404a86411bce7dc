from resources_servers.s.base import TwoLoops


if __name__ == "__main__":
    TwoLoops.run_webserver()

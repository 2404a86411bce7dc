from resources_servers.s.base import ThroughClose


if __name__ == "__main__":
    ThroughClose.run_webserver()

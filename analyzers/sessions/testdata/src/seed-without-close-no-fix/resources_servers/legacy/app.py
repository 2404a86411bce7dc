from resources_servers.s.base import Legacy


if __name__ == "__main__":
    Legacy.run_webserver()

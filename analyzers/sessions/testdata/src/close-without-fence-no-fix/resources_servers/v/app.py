from resources_servers.s.app import Early


if __name__ == "__main__":
    Early.run_webserver()

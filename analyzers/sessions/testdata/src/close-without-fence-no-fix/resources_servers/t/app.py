from resources_servers.s.app import Either


if __name__ == "__main__":
    Either.run_webserver()

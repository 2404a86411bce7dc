from resources_servers.s.base import NoRaise


if __name__ == "__main__":
    NoRaise.run_webserver()

from resources_servers.s.app import Keeper


if __name__ == "__main__":
    Keeper.run_webserver()

from resources_servers.vault.app import Taken


if __name__ == "__main__":
    Taken.run_webserver()

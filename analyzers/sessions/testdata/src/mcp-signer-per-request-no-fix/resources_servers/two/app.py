from resources_servers.vault.app import Two


if __name__ == "__main__":
    Two.run_webserver()

from resources_servers.reuse.app import Fixed


if __name__ == "__main__":
    Fixed.run_webserver()

from resources_servers.s.base import Child


if __name__ == "__main__":
    Child.run_webserver()

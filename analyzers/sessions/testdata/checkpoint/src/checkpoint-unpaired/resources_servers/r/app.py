from resources_servers.s.base import R


if __name__ == "__main__":
    R.run_webserver()

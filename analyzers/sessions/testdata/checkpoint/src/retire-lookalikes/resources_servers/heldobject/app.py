from resources_servers.s.base import HeldObject


if __name__ == "__main__":
    HeldObject.run_webserver()

from resources_servers.s.base import Stateless


if __name__ == "__main__":
    Stateless.run_webserver()

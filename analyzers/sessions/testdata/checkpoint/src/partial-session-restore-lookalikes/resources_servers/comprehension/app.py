from resources_servers.s.base import Comprehension


if __name__ == "__main__":
    Comprehension.run_webserver()

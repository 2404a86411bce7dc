from resources_servers.quiet.base import Quiet


class Hush(Quiet):
    pass


if __name__ == "__main__":
    Hush.run_webserver()

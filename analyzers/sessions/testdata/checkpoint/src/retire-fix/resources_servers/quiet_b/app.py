from resources_servers.quiet.base import Quiet


class Mute(Quiet):
    pass


if __name__ == "__main__":
    Mute.run_webserver()

from resources_servers.aviary import app as aviary


class HotPotQAServer(aviary.AviaryTaskServer):  # want "GL101 server class HotPotQAServer has neither"
    dataset: str = "hotpotqa"


if __name__ == "__main__":
    HotPotQAServer.run_webserver()

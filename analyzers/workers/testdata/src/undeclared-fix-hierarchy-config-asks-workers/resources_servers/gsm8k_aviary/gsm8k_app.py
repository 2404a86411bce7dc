from resources_servers.aviary.app import AviaryEnvServer


class GSM8kServer(AviaryEnvServer):  # want "GL101 server class GSM8kServer has neither"
    dataset: str = "gsm8k"


if __name__ == "__main__":
    GSM8kServer.run_webserver()

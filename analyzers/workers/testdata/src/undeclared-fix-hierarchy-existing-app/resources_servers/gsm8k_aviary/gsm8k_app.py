from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.aviary.app import AviaryEnvServer


class GSM8kServer(AviaryEnvServer):
    dataset: str = "gsm8k"


if __name__ == "__main__":
    GSM8kServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = GSM8kServer.run_webserver()

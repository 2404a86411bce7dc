from resources_servers.minted_base.base import MintedBase

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MintedA(MintedBase):
    pass


if __name__ == "__main__":
    MintedA.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MintedA.run_webserver()

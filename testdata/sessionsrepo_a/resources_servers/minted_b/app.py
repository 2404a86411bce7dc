from resources_servers.minted_base.base import MintedBase

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MintedB(MintedBase):
    def make_env(self, idx):
        return {"idx": idx}


if __name__ == "__main__":
    MintedB.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MintedB.run_webserver()

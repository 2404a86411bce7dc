from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import os


class EchoServer(SimpleResourcesServer):  # want "GL101 server class EchoServer has neither"
    def verify(self, body):
        if body:
            for x in body:
                pass
    # a comment after the body


if __name__ == "__main__":
    if os.environ.get("X"):
        EchoServer.run_webserver()
    # done
elif os.environ.get("Y"):
    pass
else:
    print("imported")

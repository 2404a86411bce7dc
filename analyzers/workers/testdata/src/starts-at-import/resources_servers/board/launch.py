from nemo_gym.base_resources_server import SimpleResourcesServer


def serve(server_class):
    server_class.run_webserver()

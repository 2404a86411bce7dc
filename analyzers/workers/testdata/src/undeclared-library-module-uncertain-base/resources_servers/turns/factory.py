def make_base():
    from nemo_gym.base_resources_server import SimpleResourcesServer

    return SimpleResourcesServer

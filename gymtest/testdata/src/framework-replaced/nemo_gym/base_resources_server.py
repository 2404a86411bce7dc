class SimpleResourcesServer:
    pass

from typing import Literal


class BaseServerConfig:
    num_workers: Literal[1] = 1


class SimpleResourcesServer:
    pass

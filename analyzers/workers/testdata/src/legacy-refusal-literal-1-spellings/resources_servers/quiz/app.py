import typing as t
from typing import Literal, Optional, Union

from typing_extensions import Literal as XLiteral
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


# Typing's Literal under any name it is imported by, alone or with None.
class AliasConfig(BaseResourcesServerConfig):
    num_workers: t.Literal[1] = 1  # want "GL103 AliasConfig declares `num_workers: t.Literal\\[1\\]`"


class UnionConfig(BaseResourcesServerConfig):
    num_workers: Union[Literal[1], None] = None  # want "GL103 UnionConfig declares"


class NoneConfig(BaseResourcesServerConfig):
    num_workers: XLiteral[1, None] = None  # want "GL103 NoneConfig declares"


class PipeConfig(BaseResourcesServerConfig):
    num_workers: None | Optional[Literal[1]] = None  # want "GL103 PipeConfig declares"


class WiderConfig(BaseResourcesServerConfig):
    num_workers: Union[Literal[1], int] = 1


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: AliasConfig

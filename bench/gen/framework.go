package gen

// The small nemo_gym framework package every generated server builds on.
// It mirrors the names and the class hierarchy of the real framework
// (BaseServer -> SimpleServer, Base*/Simple* per server type), not its code.

var frameworkFiles = []struct{ path, text string }{
	{"nemo_gym/__init__.py", `"""A synthetic stand-in for the NeMo Gym framework package."""

import os
import sys
from pathlib import Path

PARENT_DIR = Path(__file__).parent.parent


def _augment_sys_path() -> None:
    extra = [p for p in os.environ.get("NEMO_GYM_EXTRA_ROOTS", "").split(os.pathsep) if p]
    for root in [*extra, os.getcwd(), str(PARENT_DIR)]:
        if root not in sys.path:
            sys.path.insert(0, root)


_augment_sys_path()
`},
	{"nemo_gym/config_types.py", `from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

ServerType = Literal["resources_servers", "responses_api_agents", "responses_api_models"]


class BaseServerConfig(BaseModel):
    model_config = ConfigDict(extra="allow")

    host: str
    port: int
    entrypoint: str
    name: str
    num_workers: Optional[int] = None


class ServerRef(BaseModel):
    type: ServerType
    name: str


class ModelServerRef(ServerRef):
    type: Literal["responses_api_models"] = "responses_api_models"


class ResourcesServerRef(ServerRef):
    type: Literal["resources_servers"] = "resources_servers"
`},
	{"nemo_gym/openai_utils.py", `from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict


class NeMoGymResponseCreateParamsNonStreaming(BaseModel):
    model_config = ConfigDict(extra="allow")

    input: Any = None
    model: Optional[str] = None
    tools: List[Dict[str, Any]] = []


class NeMoGymResponse(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = ""
    output: List[Dict[str, Any]] = []

    @property
    def output_text(self) -> str:
        return "".join(str(item.get("text", "")) for item in self.output)


class NeMoGymChatCompletionCreateParamsNonStreaming(BaseModel):
    model_config = ConfigDict(extra="allow")

    messages: List[Dict[str, Any]] = []


class NeMoGymChatCompletion(BaseModel):
    model_config = ConfigDict(extra="allow")

    choices: List[Dict[str, Any]] = []
`},
	{"nemo_gym/server_utils.py", `import asyncio
import logging
import os
from typing import Any, ClassVar, Dict, Optional
from uuid import uuid4

import ray
import uvicorn
from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict
from starlette.middleware.sessions import SessionMiddleware

from nemo_gym.config_types import BaseServerConfig

logger = logging.getLogger(__name__)

SESSION_ID_KEY = "session_id"
_ENTRYPOINT_ENV = "IS_NEMO_GYM_FASTAPI_ENTRYPOINT"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    target = os.environ.get(_ENTRYPOINT_ENV)
    if not target:
        return False
    return os.path.abspath(file).replace(os.sep, "/").endswith(target)


def initialize_ray() -> None:
    if ray.is_initialized():
        return
    address = os.environ.get("RAY_ADDRESS")
    ray.init(address=address, ignore_reinit_error=True)


class ServerClient(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    base_urls: Dict[str, str] = {}

    async def post(self, server_name: str, url_path: str, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{server_name}{url_path}")

    async def get(self, server_name: str, url_path: str, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{server_name}{url_path}")


class BaseServer(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    config: BaseServerConfig
    server_client: ServerClient

    ray_enabled: ClassVar[bool] = False

    @classmethod
    def load_config_from_global_config(cls) -> BaseServerConfig:
        raise NotImplementedError


class SimpleServer(BaseServer):
    def setup_session_middleware(self, app: FastAPI) -> None:
        app.add_middleware(SessionMiddleware, secret_key=str(uuid4()))

        @app.middleware("http")
        async def add_session_id(request: Request, call_next):
            if SESSION_ID_KEY not in request.session:
                request.session[SESSION_ID_KEY] = str(uuid4())
            return await call_next(request)

    def setup_webserver(self) -> FastAPI:
        app = FastAPI()
        self.setup_session_middleware(app)
        return app

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return None

    @classmethod
    def run_webserver(cls) -> FastAPI:
        initialize_ray()
        config = cls.load_config_from_global_config()
        server = cls(config=config, server_client=ServerClient())
        app = server.setup_webserver()
        num_workers = config.num_workers or 1
        if num_workers > 1:
            reason = server.multiple_workers_unsupported_reason()
            if reason is not None:
                raise RuntimeError(f"{cls.__name__} cannot run with num_workers={num_workers}: {reason}")
            if os.environ.get("IS_NEMO_GYM_FASTAPI_WORKER"):
                return app
            module = config.entrypoint.replace(".py", "").replace("/", ".")
            os.environ["IS_NEMO_GYM_FASTAPI_WORKER"] = "1"
            os.environ[_ENTRYPOINT_ENV] = config.entrypoint
            uvicorn.run(f"{module}:app", host=config.host, port=config.port, workers=num_workers)
        else:
            uvicorn.run(app, host=config.host, port=config.port)
        return app


async def raise_for_status(response: Any) -> None:
    if getattr(response, "status", 200) >= 400:
        await asyncio.sleep(0)
        raise RuntimeError(f"request failed with status {response.status}")
`},
	{"nemo_gym/base_resources_server.py", `from abc import abstractmethod
from typing import Any, Dict, Optional

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict

from nemo_gym.config_types import BaseServerConfig
from nemo_gym.openai_utils import NeMoGymResponse, NeMoGymResponseCreateParamsNonStreaming
from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResourcesServerConfig(BaseServerConfig):
    domain: str = "other"


class BaseRunRequest(BaseModel):
    model_config = ConfigDict(extra="allow")

    responses_create_params: NeMoGymResponseCreateParamsNonStreaming


class BaseVerifyRequest(BaseRunRequest):
    response: NeMoGymResponse


class BaseVerifyResponse(BaseVerifyRequest):
    reward: float


class BaseSeedSessionRequest(BaseModel):
    model_config = ConfigDict(extra="allow")


class BaseSeedSessionResponse(BaseModel):
    pass


class BaseResourcesServer(BaseServer):
    config: BaseResourcesServerConfig


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        app.post("/aggregate_metrics")(self.aggregate_metrics)
        return app

    async def seed_session(self, request: Request, body: BaseSeedSessionRequest) -> BaseSeedSessionResponse:
        return BaseSeedSessionResponse()

    @abstractmethod
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        ...

    async def aggregate_metrics(self, body: Dict[str, Any]) -> Dict[str, Any]:
        rewards = [float(r.get("reward", 0.0)) for r in body.get("rollouts", [])]
        mean: Optional[float] = sum(rewards) / len(rewards) if rewards else None
        return {"mean_reward": mean, "num_rollouts": len(rewards)}
`},
	{"nemo_gym/base_responses_api_agent.py", `from abc import abstractmethod

from fastapi import Body, FastAPI, Request

from nemo_gym.base_resources_server import BaseRunRequest, BaseVerifyResponse
from nemo_gym.config_types import BaseServerConfig
from nemo_gym.openai_utils import NeMoGymResponse, NeMoGymResponseCreateParamsNonStreaming
from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIAgentConfig(BaseServerConfig):
    pass


class BaseResponsesAPIAgent(BaseServer):
    config: BaseResponsesAPIAgentConfig


class SimpleResponsesAPIAgent(BaseResponsesAPIAgent, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/v1/responses")(self.responses)
        app.post("/run")(self.run)
        return app

    @abstractmethod
    async def responses(
        self, request: Request, body: NeMoGymResponseCreateParamsNonStreaming = Body()
    ) -> NeMoGymResponse:
        ...

    @abstractmethod
    async def run(self, request: Request, body: BaseRunRequest) -> BaseVerifyResponse:
        ...
`},
	{"nemo_gym/base_responses_api_model.py", `from abc import abstractmethod

from fastapi import Body, FastAPI, Request

from nemo_gym.config_types import BaseServerConfig
from nemo_gym.openai_utils import (
    NeMoGymChatCompletion,
    NeMoGymChatCompletionCreateParamsNonStreaming,
    NeMoGymResponse,
    NeMoGymResponseCreateParamsNonStreaming,
)
from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIModelConfig(BaseServerConfig):
    pass


class BaseResponsesAPIModel(BaseServer):
    config: BaseResponsesAPIModelConfig


class SimpleResponsesAPIModel(BaseResponsesAPIModel, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/v1/responses")(self.responses)
        app.post("/v1/chat/completions")(self.chat_completions)
        return app

    @abstractmethod
    async def responses(
        self, request: Request, body: NeMoGymResponseCreateParamsNonStreaming = Body()
    ) -> NeMoGymResponse:
        ...

    @abstractmethod
    async def chat_completions(
        self, request: Request, body: NeMoGymChatCompletionCreateParamsNonStreaming = Body()
    ) -> NeMoGymChatCompletion:
        ...
`},
}

const topReadme = `# Synthetic Gym repository

Generated by gymlint's bench/gen for benchmarks. The layout follows NeMo Gym:
server dirs under resources_servers/, responses_api_agents/ and responses_api_models/,
each with app.py, configs/*.yaml, helper modules and tests/. The code is generated and
does not run.
`

const topPyproject = `[project]
name = "nemo-gym"
version = "0.0.0"
requires-python = ">=3.11"
dependencies = ["fastapi", "pydantic>=2", "ray[default]", "uvicorn"]
`

const ciWorkflow = `name: tests
on:
  pull_request:
  push:
    branches: [main]
jobs:
  unit:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: astral-sh/setup-uv@v5
      - run: uv sync --extra dev
      - run: uv run pytest -n 8 tests/unit_tests
`

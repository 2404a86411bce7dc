"""Runs each task as a Ray job on the cluster."""

import asyncio

import ray

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


@ray.remote(num_cpus=0.25)
def run_task(task: dict) -> dict:
    return {"output": task.get("input", ""), "reward": 0.0}


class JobAgent(SimpleResponsesAPIAgent):
    async def run(self, body: dict) -> dict:
        ref = run_task.remote(body)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, ray.get, ref)


if __name__ == "__main__":
    JobAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JobAgent.run_webserver()  # noqa: F401

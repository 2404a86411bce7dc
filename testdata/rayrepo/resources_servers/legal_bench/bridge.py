"""Runs the legal benchmark's tasks through the job agent."""

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from responses_api_agents.job_agent.app import JobAgent


class LegalBenchBridge(JobAgent):
    task_dir: str = "tasks"


if __name__ == "__main__":
    LegalBenchBridge.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LegalBenchBridge.run_webserver()  # noqa: F401

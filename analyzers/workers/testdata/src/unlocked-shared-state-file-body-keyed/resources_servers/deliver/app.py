import os
import shutil

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class DeliverServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        out = os.path.join(self.config.root, f"{body.task_id}_{body.rollout_id}")
        os.makedirs(out, exist_ok=True)
        shutil.copy(self.config.template, os.path.join(out, "deliverable.docx"))  # want `^GL111 route DeliverServer.seed_session writes os.path.join\(out, "deliverable.docx"\) \(shutil.copy\), keyed by the body field task_id, which session routing ignores, without a file lock help: .*to return "It writes os.path.join\(out, "deliverable.docx"\) keyed by the body field task_id, so sessions on different workers can write the same file."$`
        return {}


if __name__ == "__main__":
    DeliverServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = DeliverServer.run_webserver()  # related "module-level app of resources_servers/deliver/app.py: uvicorn"

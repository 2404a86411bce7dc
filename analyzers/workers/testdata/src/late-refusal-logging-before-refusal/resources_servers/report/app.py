from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from nemo_gym import server_utils
from nemo_gym.server_utils import refuse_unsupported_num_workers as refuse_workers

class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        logger.info("starting %s", self.config.name)
        self._count = 0
        self.logger.debug("x")
        self.urls = [f"http://127.0.0.1:{8100 + r}/v1" for r in range(self.config.n)]
        if isinstance(self.config.path, str) and len(self.config.path) > 0:
            print("path", str(self.config.path))
        refuse_workers(self)
        ensure_office_suite()

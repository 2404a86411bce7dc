from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from resources_servers.report.tools import sorted


# sorted is the repository's function here, not the builtin: it is work.
class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        self._rows = sorted(self.config.rows)  # want `GL102 ReportServer.model_post_init calls sorted\(\) before refuse_unsupported_num_workers\(self\) at line 13`
        refuse_unsupported_num_workers(self)

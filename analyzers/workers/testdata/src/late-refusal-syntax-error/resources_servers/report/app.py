from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from nemo_gym import server_utils
from nemo_gym.server_utils import refuse_unsupported_num_workers as refuse_workers

class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"
    # want +1 "GL001 syntax error"
    def model_post_init(self, context:
        ensure_office_suite()

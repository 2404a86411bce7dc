from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from nemo_gym import server_utils
from nemo_gym.server_utils import refuse_unsupported_num_workers as refuse_workers

class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):  # related `ReportServer.multiple_workers_unsupported_reason\(\) can`
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        ensure_office_suite()  # want `^GL102 ReportServer.model_post_init calls ensure_office_suite\(\) before refuse_unsupported_num_workers\(self\) at line 12 help: call refuse_unsupported_num_workers\(self\) first in ReportServer.model_post_init$`
        refuse_unsupported_num_workers(self)  # related "the refusal comes only here"

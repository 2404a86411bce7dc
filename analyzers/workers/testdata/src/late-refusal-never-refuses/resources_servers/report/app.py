from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from nemo_gym import server_utils
from nemo_gym.server_utils import refuse_unsupported_num_workers as refuse_workers

class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):  # related `ReportServer.multiple_workers_unsupported_reason\(\) can`
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):  # want `^GL102 ReportServer.model_post_init calls load_rows\(\) at line 12 but never refuse_unsupported_num_workers\(self\), though ReportServer can refuse several workers help: call refuse_unsupported_num_workers\(self\) \(from nemo_gym.server_utils\) first in ReportServer.model_post_init$`
        super().model_post_init(context)
        self._rows = load_rows(self.config.path)  # related "first work in model_post_init"

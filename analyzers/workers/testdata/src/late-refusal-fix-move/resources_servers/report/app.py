from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        """Install the office suite, then take the first snapshot."""
        ensure_office_suite()  # want `^GL102 ReportServer.model_post_init calls ensure_office_suite\(\) before refuse_unsupported_num_workers\(self\) at line 14`
        self.snapshot = take_snapshot()
        # with several workers, fail on the worker count
        refuse_unsupported_num_workers(self)  # the shared guard
        self.ready = True

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


# A lambda's calls run later, if at all: building it is no work.
class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        self._loader = lambda: load_rows(self.config.path)
        refuse_unsupported_num_workers(self)
        ensure_office_suite()

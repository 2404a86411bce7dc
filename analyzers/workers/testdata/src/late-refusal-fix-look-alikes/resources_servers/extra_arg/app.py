from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):
        ensure_office_suite()  # want `GL102 .*calls ensure_office_suite\(\) before`  # the refusal has another argument: no fix
        refuse_unsupported_num_workers(self, strict=True)

from typing import TYPE_CHECKING

from nemo_gym.base_resources_server import SimpleResourcesServer

if TYPE_CHECKING:
    from nemo_gym.server_utils import refuse_unsupported_num_workers


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

    def model_post_init(self, context):  # want `GL102 .*calls ensure_office_suite\(\) at line 14 but never`  # the name is bound only under TYPE_CHECKING: no fix
        ensure_office_suite()

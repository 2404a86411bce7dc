from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(this):
        return "the metrics snapshot is taken in memory"

    def model_post_init(this, context):  # want `^GL102 ReportServer.model_post_init calls take_snapshot\(\) at line 10 but never`
        this.snapshot = take_snapshot()

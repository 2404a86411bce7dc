from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class AuditServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "audit trails are kept in this process by the trail id in the request body"

    def model_post_init(self, context):
        self.audit.info("audit server starting")  # want `GL102 .*calls self\.audit\.info\(\) before refuse_unsupported_num_workers`
        refuse_unsupported_num_workers(self)
        self.trails = {}

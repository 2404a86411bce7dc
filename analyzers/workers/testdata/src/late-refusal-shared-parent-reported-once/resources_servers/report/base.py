from nemo_gym.base_resources_server import SimpleResourcesServer


class OfficeServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "one process owns the office suite"

    def model_post_init(self, context):  # want "GL102 OfficeServer.model_post_init never calls"
        ensure_office_suite()

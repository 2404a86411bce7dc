from nemo_gym.base_resources_server import SimpleResourcesServer


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return super().multiple_workers_unsupported_reason()

    def model_post_init(self, context):
        ensure_office_suite()

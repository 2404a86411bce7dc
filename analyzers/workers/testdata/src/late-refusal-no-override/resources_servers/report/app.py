from nemo_gym.base_resources_server import SimpleResourcesServer


class ReportServer(SimpleResourcesServer):  # want "GL101 server class ReportServer has neither"
    def model_post_init(self, context):
        ensure_office_suite()

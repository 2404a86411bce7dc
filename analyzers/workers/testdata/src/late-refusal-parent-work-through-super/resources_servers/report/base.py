from nemo_gym.base_resources_server import SimpleResourcesServer


class OfficeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        ensure_office_suite()  # related `OfficeServer.model_post_init calls ensure_office_suite\(\)`

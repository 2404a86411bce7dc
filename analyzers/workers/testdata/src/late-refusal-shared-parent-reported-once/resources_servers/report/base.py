from nemo_gym.base_resources_server import SimpleResourcesServer


class OfficeServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "one process owns the office suite"

    def model_post_init(self, context):  # want `GL102 OfficeServer.model_post_init calls ensure_office_suite\(\) at line 9 but never refuse_unsupported_num_workers\(self\), though ReportServer can refuse .* help: call refuse_unsupported_num_workers\(self\) .*first in OfficeServer.model_post_init$`
        ensure_office_suite()

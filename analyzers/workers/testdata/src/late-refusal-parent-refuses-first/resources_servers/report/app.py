from resources_servers.report.base import OfficeServer


class ReportServer(OfficeServer):
    def model_post_init(self, context):
        super().model_post_init(context)
        load_templates()

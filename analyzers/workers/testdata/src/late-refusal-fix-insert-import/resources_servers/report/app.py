"""The report server."""

from nemo_gym.base_resources_server import SimpleResourcesServer


class BaseReport(SimpleResourcesServer):
    def model_post_init(self, context):
        self.rows = load_rows()


class ReportServer(BaseReport):
    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.grouped:
            return "groups are collected in memory"
        return None

    def model_post_init(self, context):  # want `^GL102 ReportServer.model_post_init calls super\(\).model_post_init\(\) \(which runs load_rows\(\) in BaseReport.model_post_init first\) at line 18 but never refuse_unsupported_num_workers\(self\)`
        super().model_post_init(context)
        self.extra = load_extra()

from nemo_gym.server_utils import refuse_unsupported_num_workers
from resources_servers.report.base import OfficeServer


class ReportServer(OfficeServer):
    def multiple_workers_unsupported_reason(self):  # related `ReportServer.multiple_workers_unsupported_reason\(\) can`
        return "one process owns the office suite"

    def model_post_init(self, context):
        super().model_post_init(context)  # want `^GL102 ReportServer.model_post_init calls super\(\).model_post_init\(\) \(which runs ensure_office_suite\(\) in OfficeServer.model_post_init first\) before refuse_unsupported_num_workers\(self\) at line 11 help: call refuse_unsupported_num_workers\(self\) first in ReportServer.model_post_init$`
        refuse_unsupported_num_workers(self)  # related "the refusal comes only here"

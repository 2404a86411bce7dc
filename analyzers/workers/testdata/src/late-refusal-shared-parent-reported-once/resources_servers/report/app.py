from resources_servers.report.base import OfficeServer


class ReportServer(OfficeServer):
    pass

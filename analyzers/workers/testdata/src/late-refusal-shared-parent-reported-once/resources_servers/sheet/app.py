from resources_servers.report.base import OfficeServer


class SheetServer(OfficeServer):
    pass

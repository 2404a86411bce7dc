"""Launches the ns_tools server with the inline Python tool only."""

import os

from resources_servers.ns_tools.app import NsToolsServer


class LiteDefaults:
    python_tool_mode = "inline"


if __name__ == "__main__":
    os.environ.setdefault("NS_TOOLS_PYTHON_TOOL_MODE", LiteDefaults.python_tool_mode)
    NsToolsServer.run_webserver()

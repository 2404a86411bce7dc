from resources_servers.srv.core import Core


if __name__ == "__main__":
    Core.run_webserver()  # want "GL201 server class Core \\(defined in resources_servers/srv/core.py\\) uses Ray.*but is defined outside its entrypoint"

from core import Core


if __name__ == "__main__":
    Core.run_webserver()  # want "GL202 server class Core \\(defined in resources_servers/srv/core.py\\) declares ray_enabled there, not in its entrypoint.* help: subclass Core in resources_servers/srv/lite.py with `ray_enabled: ClassVar\\[bool\\] = True` in its body and start the subclass$"

from core import Core


if __name__ == "__main__":
    Core.run_webserver()  # want "GL202 .*declares ray_enabled in resources_servers/srv/core.py, but the server supervisor reads it only from resources_servers/srv/lite.py"

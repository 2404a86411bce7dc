from resources_servers.echo.app import EchoServer  # gymlint: ignore[GL201] no Ray here  # want "GL010 .*GL201"

if __name__ == "__main__":
    EchoServer.run_webserver()  # want `GL101 .*\(defined in resources_servers/echo/app\.py\) has neither`

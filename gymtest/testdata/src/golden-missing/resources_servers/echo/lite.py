from resources_servers.echo.app import EchoServer

if __name__ == "__main__":
    EchoServer.run_webserver()  # want "GL101"

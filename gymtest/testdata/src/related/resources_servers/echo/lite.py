from resources_servers.echo.app import EchoServer  # related "anything"

if __name__ == "__main__":
    EchoServer.run_webserver()  # want "GL101"

from resources_servers.cli_main.app import QuizServer


def main():
    QuizServer.run_webserver()

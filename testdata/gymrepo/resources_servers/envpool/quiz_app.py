from dataclasses import dataclass

import resources_servers.envpool.app as envpool_app


@dataclass
class QuizEnv:
    question: str
    answer: str


@dataclass
class QuizData:
    rows: tuple[tuple[str, str], ...] = (("Capital of France?", "Paris"),)


class QuizServer(envpool_app.EnvResourcesServer[QuizEnv, QuizData]):
    def make_env(self, index: int) -> QuizEnv:
        rows = QuizData().rows
        question, answer = rows[index % len(rows)]
        return QuizEnv(question=question, answer=answer)


if __name__ == "__main__":
    QuizServer.run_webserver()

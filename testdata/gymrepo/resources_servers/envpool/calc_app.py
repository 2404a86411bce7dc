from pydantic import BaseModel

from resources_servers.envpool.app import EnvResourcesServer


class CalcEnv:
    def __init__(self, expression: str) -> None:
        self.expression = expression


class CalcData(BaseModel):
    expressions: list[str] = ["2 + 2", "7 * 6"]


class CalcServer(EnvResourcesServer[CalcEnv, CalcData]):
    data: CalcData = CalcData()

    def make_env(self, index: int) -> CalcEnv:
        return CalcEnv(self.data.expressions[index % len(self.data.expressions)])


if __name__ == "__main__":
    CalcServer.run_webserver()

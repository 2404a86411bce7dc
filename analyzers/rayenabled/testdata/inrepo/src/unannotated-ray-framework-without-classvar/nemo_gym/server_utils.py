from pydantic import BaseModel


class BaseServer(BaseModel):
    pass


class SimpleServer(BaseServer):
    pass

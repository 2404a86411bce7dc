class TurnError(Exception):  # want `^GL101 module defines no server class and no module-level app, and resources_servers/turns/configs/turns.yaml:4 names it as an entrypoint help: if it starts a server, give it a module-level app or a multiple_workers_unsupported_reason\(\) override; if it starts none, add it to exempt: in .gymlint.yaml with the reason$`
    pass


class TurnTimeout(TurnError, object):
    pass

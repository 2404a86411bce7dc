class TurnError(Exception):  # want "GL101 .*resources_servers/turns/errors.py defines no server class and no module-level app"
    pass


class TurnTimeout(TurnError, object):
    pass

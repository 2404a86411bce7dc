class TurnError(Exception):  # want `^GL016 resources_servers/turns/errors.py starts no server: it defines no server class, has no __main__ guard and no module-level app; the workers rules skip it help: nothing to do if it is a base-class module or a library`
    pass


class TurnTimeout(TurnError, object):
    pass

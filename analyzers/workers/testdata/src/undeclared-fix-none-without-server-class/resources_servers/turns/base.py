def helper():  # want "GL101 resources_servers/turns/base.py defines no server"
    return 1

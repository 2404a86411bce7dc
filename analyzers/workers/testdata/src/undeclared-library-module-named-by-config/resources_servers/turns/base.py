def helper():  # want "GL016 resources_servers/turns/base.py starts no server: it defines no server class, has no __main__ guard and no module-level app; the workers rules skip it"
    return 1

def helper():  # want "GL101 .*defines no server class and no module-level app.*resources_servers/turns/configs/turns.yaml:4 names it as an entrypoint.*add it to exempt: in .gymlint.yaml"
    return 1

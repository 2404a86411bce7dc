def helper():  # want `^GL101 module defines no server`
    return 1

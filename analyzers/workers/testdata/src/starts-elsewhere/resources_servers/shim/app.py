import resources_servers.shim.server  # want "GL101 module defines no server class and no module-level app"

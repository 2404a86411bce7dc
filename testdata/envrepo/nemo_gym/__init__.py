"""A Gym framework in the nested layout: server_runtime/, config/, orchestration/."""

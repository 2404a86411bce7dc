from ray.util.placement_group import placement_group


def start():
    pass

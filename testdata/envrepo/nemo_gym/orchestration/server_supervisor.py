"""Starts each configured server in its own process."""

import importlib


def needs_ray(server_cls) -> bool:
    return bool(getattr(server_cls, "ray_enabled", False))


def load_server_class(module_name: str, class_name: str):
    return getattr(importlib.import_module(module_name), class_name)

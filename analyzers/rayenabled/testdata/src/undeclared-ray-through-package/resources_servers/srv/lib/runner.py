from .pool import start

from .base import (
    TurnRequest,
    TurnResponse,
    TurnServer,
)

__all__ = ["TurnRequest", "TurnResponse", "TurnServer"]

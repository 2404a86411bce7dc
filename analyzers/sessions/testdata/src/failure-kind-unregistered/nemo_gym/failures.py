import warnings

SESSION_LOST = "session_lost"
SESSION_EXPIRED = "session_expired"
FAILURE_KINDS = frozenset({SESSION_LOST, SESSION_EXPIRED, "sandbox_unavailable"})


class BaseVerifyResponse:
    reward: float
    failure_kind: str = None

    @classmethod
    def _warn_on_unregistered_failure_kind(cls, value):
        if value is not None and value not in FAILURE_KINDS:
            warnings.warn(f"unregistered failure_kind {value}")
        return value

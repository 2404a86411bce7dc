FAILURE_KINDS = {"session_lost", "session_expired"}


def register_failure_kind(kind):
    FAILURE_KINDS.add(kind)


class BaseVerifyResponse:
    reward: float

    @classmethod
    def _warn_on_unregistered_failure_kind(cls, value):
        if value not in FAILURE_KINDS:
            print(value)
        return value

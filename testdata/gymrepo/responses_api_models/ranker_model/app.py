"""A local model that ranks candidate answers in pairs."""

from responses_api_models.local_big_model.app import LocalBigModel


class RankerMixin:
    pending_pairs: dict[str, list[str]] = {}

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Candidate pairs wait in this process's memory until both sides arrive."

    def rank(self, first: str, second: str) -> int:
        return 0 if len(first) >= len(second) else 1


class RankerModel(RankerMixin, LocalBigModel):
    comparisons_per_prompt: int = 4


if __name__ == "__main__":
    RankerModel.run_webserver()

"""Ranker variant whose bases list the model before the mixin."""

from responses_api_models.local_big_model.app import LocalBigModel
from responses_api_models.ranker_model.app import RankerMixin


class WrongOrderModel(LocalBigModel, RankerMixin):
    comparisons_per_prompt: int = 2


if __name__ == "__main__":
    WrongOrderModel.run_webserver()

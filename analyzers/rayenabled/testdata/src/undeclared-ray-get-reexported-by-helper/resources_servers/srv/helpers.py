from ray import get as fetch

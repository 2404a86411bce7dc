"""Runs both queries on a pool of database workers and compares the results."""

import ray

from sql_runner import run_query


def compare_results(predicted: str, gold: str, timeout_s: float = 30.0) -> bool:
    refs = [run_query.remote(predicted), run_query.remote(gold)]
    done, pending = ray.wait(refs, num_returns=2, timeout=timeout_s)
    for ref in pending:
        ray.cancel(ref)
    if pending:
        return False
    left, right = ray.get(done)
    return sorted(left) == sorted(right)

"""Offline scoring helpers for word_guess rollouts.

A library module: it defines no server and starts nothing.
"""

from collections import Counter

from helpers import normalize_guess


def guess_histogram(guesses: list[str]) -> dict[str, int]:
    return dict(Counter(normalize_guess(g) for g in guesses))


def solve_rate(rewards: list[float]) -> float:
    return sum(1 for r in rewards if r > 0) / max(len(rewards), 1)

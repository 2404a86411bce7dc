import asyncio

from resources_servers.plain_counter.app import CountVerifyRequest, PlainCounterServer


def test_counts_numbers_above_threshold() -> None:
    server = PlainCounterServer()
    body = CountVerifyRequest(numbers=[1, 5, 9], threshold=4, response_text="2")
    result = asyncio.run(server.verify(body))
    assert result.reward == 1.0


def test_wrong_count_scores_zero() -> None:
    server = PlainCounterServer()
    body = CountVerifyRequest(numbers=[1, 5, 9], threshold=4, response_text="3")
    assert asyncio.run(server.verify(body)).reward == 0.0

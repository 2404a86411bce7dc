"""One query against the read-only database copy."""

import sqlite3

import ray


@ray.remote
def run_query(sql: str) -> list[tuple]:
    with sqlite3.connect("file:gold.db?mode=ro", uri=True) as conn:
        return conn.execute(sql).fetchall()

"""Prints a ledger's totals; a tool, not a server."""

import argparse
import json


def totals(path: str) -> dict:
    with open(path) as f:
        rows = json.load(f)
    return {"count": len(rows), "sum": sum(r["amount"] for r in rows)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    args = parser.parse_args()
    print(json.dumps(totals(args.path)))


if __name__ == "__main__":
    main()

"""Executes one program in a subprocess, as a Ray task."""

import subprocess
import sys

import ray


@ray.remote(max_retries=0)
def run_tests(program: str, timeout_s: float) -> bool:
    try:
        done = subprocess.run([sys.executable, "-c", program], timeout=timeout_s, capture_output=True)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0

from typing import Literal


class Old:
    num_workers: Literal[1] = 1

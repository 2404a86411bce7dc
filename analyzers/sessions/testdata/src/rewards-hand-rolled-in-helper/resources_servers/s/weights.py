WEIGHTS = {"exact": 1.0}

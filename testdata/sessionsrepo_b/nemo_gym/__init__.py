"""A pocket-sized NeMo Gym for gymlint's sessionsrepo_b fixture: only the names its servers use."""

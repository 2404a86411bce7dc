"""A miniature of the NeMo Gym framework, just enough for gymlint's staterepo fixture."""

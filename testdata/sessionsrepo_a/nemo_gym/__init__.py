"""A small stand-in for the NeMo Gym framework: just what the sessions fixtures use."""

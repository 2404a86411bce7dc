"""A stand-in for the NeMo Gym framework package (gen2)."""

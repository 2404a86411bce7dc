"""A pocket-sized stand-in for the NeMo Gym framework package.

Fixture only: nothing here is imported or run by the linter's tests.
"""

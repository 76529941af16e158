"""A module whose attributes a test rebinds between gradient calls (``config.FACTOR`` in user code)."""
FACTOR = 1.0

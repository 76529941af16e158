"""Dataset-wide settings (``config``) and the random numbers transforms draw (``random``)."""

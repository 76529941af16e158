"""Backend-specific lowerings of ops whose plain XLA form is slow on CPU (DESIGN section 7).

Each module holds one op family's fast form with its contract (same values and gradients as
the plain form) and an ``applies`` test; ``switch`` decides per trace whether the fast forms
are used (CPU backend only, unless ``SPORAX_PLAIN_LOWERING`` or ``plain_lowering()`` says no).
``channels_last`` is the exception without ``applies``: it lets the layers around the wide
convolutions of ``conv_nhwc_cpu`` pass NHWC arrays to each other, under the same ``conv`` switch.
"""
from sporax.ops.lowering.switch import fast_lowering, plain_lowering

__all__ = ["fast_lowering", "plain_lowering"]

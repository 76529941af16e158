"""Whether PyNative operations record gradients (``mindspore._no_grad`` turns it off).

While ``disabled[0]`` is positive, every op result wrapped as a Tensor inside a differentiated
trace goes through ``lax.stop_gradient`` (``Tensor._wrap``), so values computed in a ``no_grad``
block are constants to the gradient, as MindSpore's PyNative executor treats them.
"""
disabled = [0]


def grad_disabled():
    """True inside a ``_no_grad`` block."""
    return disabled[0] > 0

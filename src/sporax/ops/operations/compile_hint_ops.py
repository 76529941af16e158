"""``ops.Reusing``: label a function as a reusable (not inlined) sub-graph of a compiled program.

The label is a compilation hint: the function computes the same values with or without it. sporax
records it on the function (``function.no_inline`` is True) and leaves the inlining decision to XLA,
which compiles the whole program.

Example:
    >>> from sporax import ops
    >>> body = ops.Reusing()(lambda i, value: value * i)
    >>> body.no_inline, body(3, 2)
    (True, 6)
"""
import functools

from sporax.ops.primitive import Primitive, prim_attr_register


class Reusing(Primitive):
    """Label ``input_x`` (a function) as a sub-graph to reuse, not inline.

    Inputs:
        - **input_x** (function) - the function to label.

    Outputs:
        function: the labelled function, computing what ``input_x`` computes.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        if not callable(input_x):
            raise TypeError(f"For 'Reusing', the input must be a function, but got {type(input_x).__name__}.")

        @functools.wraps(input_x)
        def labelled(*args, **kwargs):
            return input_x(*args, **kwargs)

        labelled.no_inline = True
        return labelled

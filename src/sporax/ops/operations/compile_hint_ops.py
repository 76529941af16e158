"""Compilation hints: ``ops.Reusing`` labels a function as a reusable (not inlined) sub-graph of a compiled
program; ``ConvertToDynamic`` (MindSpore's private ``_inner_ops``) marks a Tensor's shape as unknown.

The hints change how a program is compiled, not what it computes. sporax records ``Reusing`` on the
function (``function.no_inline`` is True) and leaves the inlining decision to XLA, which compiles the whole
program; ``ConvertToDynamic`` passes its Tensor through (a compiled program specializes on its shapes).

Example:
    >>> from sporax import ops
    >>> body = ops.Reusing()(lambda i, value: value * i)
    >>> body.no_inline, body(3, 2)
    (True, 6)
"""
import functools

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
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


class ConvertToDynamic(Primitive):
    """Mark ``input``'s shape (its rank too with ``is_dynamic_rank``) as unknown to the graph compiler.

    MindSpore's dynamic-shape tests wrap a network's inputs and outputs in it to compile the shape-generic
    kernels; the values, and their gradients, pass through unchanged (so in sporax, whose compiled programs
    specialize on the shapes they are called with, it is the identity).

    Args:
        is_dynamic_rank (bool): unknown rank rather than unknown dimensions. Default: ``False``.

    Inputs:
        - **input** (Tensor) - the Tensor to mark.

    Outputs:
        Tensor: ``input``'s values, shape and dtype.
    """

    @prim_attr_register
    def __init__(self, is_dynamic_rank=False):
        if not isinstance(is_dynamic_rank, bool):
            raise TypeError(f"For 'ConvertToDynamic', the type of 'is_dynamic_rank' should be 'bool', but got type "
                            f"'{type(is_dynamic_rank).__name__}'.")
        self.init_prim_io_names(inputs=["input"], outputs=["output"])

    def __call__(self, input):
        if not isinstance(input, Tensor):
            raise TypeError(f"For 'ConvertToDynamic', input[0] should be Tensor, but got {type(input).__name__}: "
                            "it marks a Tensor's shape; pass the value as a Tensor.")
        return wrap(array_of("ConvertToDynamic", "input", input))

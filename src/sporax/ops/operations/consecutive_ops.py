"""``ops.UniqueConsecutive``: the Primitive form of ``ops.unique_consecutive`` (runs of equal values collapsed).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> output, inverse, counts = ops.UniqueConsecutive(True, True)(Tensor(np.array([1, 1, 2, 1], np.int32)))
    >>> output.asnumpy().tolist(), inverse.asnumpy().tolist(), counts.asnumpy().tolist()
    ([1, 2, 1], [0, 0, 1, 2], [2, 1, 1])
"""
from sporax.ops.functional.array_shaping import unique_consecutive
from sporax.ops.primitive import Primitive, prim_attr_register


class UniqueConsecutive(Primitive):
    """Collapse each run of equal consecutive elements (or slices along ``dim``) to one.

    Args:
        return_inverse (bool): accepted for MindSpore's signature; the inverse is always computed. Default: False.
        return_counts (bool): the same, for the counts. Default: False.
        dim (int, optional): the dimension whose slices are compared; ``None`` flattens first. Default: None.

    Inputs:
        - **x** (Tensor).

    Outputs:
        ``(output, inverse, counts)``: the collapsed tensor, for each input element (or slice) the index of its run,
        and the length of each run (Int64). MindSpore leaves the last two meaningless when not requested; sporax
        gives their real values.
    """

    @prim_attr_register
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        for name, value in (("return_inverse", return_inverse), ("return_counts", return_counts)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'UniqueConsecutive', '{name}' must be a bool, but got {type(value)}.")
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
            raise TypeError(f"For 'UniqueConsecutive', 'dim' must be an int or None, but got {type(dim)}.")
        self.dim = dim

    def __call__(self, x):
        return unique_consecutive(x, True, True, self.dim)

"""``ops.DumpGradient``: save the gradient that flows back into a tensor as a ``.npy`` file (debugging).

The identity in the forward pass; in the backward pass the incoming gradient is written as
``ops.TensorDump`` writes (``{path}_{dtype}_{n}.npy``, ``.npy`` dropped from ``path``), then passed on
unchanged. It works in PyNative mode, under ``ms.jit`` and in GRAPH mode (a host callback writes the
run-time value).

Example:
    >>> import numpy as np, os, tempfile
    >>> import sporax as ms
    >>> from sporax import Tensor, ops
    >>> stem = os.path.join(tempfile.mkdtemp(), "x_dout")
    >>> grad = ms.grad(lambda x: (ops.DumpGradient()(stem, x, "out") * 3).sum())(Tensor(np.ones(2, np.float32)))
    >>> grad.asnumpy().tolist()
    [3.0, 3.0]
"""
from sporax.autodiff.hooks import InsertGradientOf
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.tensor_dump import tensordump


class DumpGradient(Primitive):
    """Dump the gradient passed back to ``x`` into a ``.npy`` file.

    Inputs:
        - **path** (str) - the file's path and name prefix.
        - **x** (Tensor) - the tensor whose gradient is dumped.
        - **input_output** (str) - ``'in'`` or ``'out'`` (which side of the operator; the gradient is the same).

    Outputs:
        Tensor, ``x``.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, path, x, input_output):
        if not isinstance(path, str) or not path:
            raise TypeError(f"For 'DumpGradient', 'path' must be a non-empty str, but got {path!r}.")
        if input_output not in ("in", "out"):
            raise ValueError(f"For 'DumpGradient', 'input_output' must be 'in' or 'out', but got {input_output!r}.")
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'DumpGradient', 'x' must be a Tensor, but got {type(x).__name__}.")

        def dump(gradient):
            tensordump(path, gradient)
            return gradient

        return InsertGradientOf(dump)(x)

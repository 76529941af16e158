"""``nn.Jvp`` and ``nn.Vjp``: MindSpore's (deprecated since 1.9) Cell forms of ``ops.jvp``/``ops.vjp``."""
from sporax.autodiff.transforms import jvp, vjp
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell


class Jvp(Cell):
    """Forward-mode product: ``Jvp(fn)(*inputs, v)`` returns ``(fn(*inputs), J(inputs) @ v)``.

    Args:
        fn (Union[Cell, function]): the function to differentiate.

    Inputs:
        - **inputs** - the inputs of ``fn``, then **v** - the tangent: a Tensor for one input, a tuple
          with one Tensor per input otherwise.

    Outputs:
        (output, tangent of the output).
    """

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, tangents = args[:-1], args[-1]
        if len(inputs) == 1:
            return jvp(self.fn, inputs[0], tangents)
        return jvp(self.fn, tuple(inputs), tuple(tangents))


class Vjp(Cell):
    """Reverse-mode product: ``Vjp(fn)(*inputs, v)`` returns ``(fn(*inputs), v @ J(inputs))``.

    Args:
        fn (Union[Cell, function]): the function to differentiate.

    Inputs:
        - **inputs** - the inputs of ``fn``, then **v** - the cotangent, shaped like the output.

    Outputs:
        (output, gradient): the gradient is one Tensor for one input, a tuple otherwise.
    """

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, cotangent = args[:-1], args[-1]
        output, pullback = vjp(self.fn, *inputs)
        gradients = pullback(cotangent)
        if len(inputs) == 1 and isinstance(gradients, tuple) and not isinstance(gradients, Tensor):
            gradients = gradients[0]
        return output, gradients

"""``mindspore.mint.nn.functional`` activations with PyTorch's arguments (``inplace``, ``dim``), onto
``sporax.ops``; the ``*_`` variants rebind the input Tensor to the result, as PyTorch's in-place ops."""
from sporax import ops

__all__ = ["elu", "elu_", "glu", "hardtanh", "hardtanh_", "leaky_relu", "log_softmax", "logsigmoid", "relu6",
           "relu_", "sigmoid_", "silu", "softmax", "threshold", "threshold_"]


def _in_place(input, result, inplace=True):
    if not inplace:
        return result
    input.assign_value(result)
    return input


def elu(input, alpha=1.0, inplace=False):
    """ELU: ``x`` for x > 0, else ``alpha * (exp(x) - 1)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.elu(ms.Tensor([-1.0, 1.0]))
    """
    return _in_place(input, ops.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):
    """In-place ``elu``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.elu_(ms.Tensor([-1.0, 1.0]))
    """
    return _in_place(input, ops.elu(input, alpha))


def glu(input, dim=-1):
    """Gated linear unit: first half times the sigmoid of the second half along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.glu(ms.Tensor([1.0, 2.0]))
    """
    return ops.glu(input, dim)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """Clamp to [min_val, max_val].

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.hardtanh(ms.Tensor([-2.0, 0.5]))
    """
    return _in_place(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):
    """In-place ``hardtanh``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.hardtanh_(ms.Tensor([-2.0, 0.5]))
    """
    return _in_place(input, ops.hardtanh(input, min_val, max_val))


def leaky_relu(input, negative_slope=0.01):
    """``x`` for x >= 0, else ``negative_slope * x``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.leaky_relu(ms.Tensor([-1.0, 1.0]))
    """
    return ops.leaky_relu(input, negative_slope)


def log_softmax(input, dim=None, *, dtype=None):
    """``log(softmax(input))`` along ``dim`` (the last when None).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.log_softmax(ms.Tensor([1.0, 2.0]), 0)
    """
    if dtype is not None:
        input = input.astype(dtype)
    return ops.log_softmax(input, -1 if dim is None else dim)


def softmax(input, dim=None, dtype=None):
    """Softmax along ``dim`` (the last when None).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.softmax(ms.Tensor([1.0, 2.0]), 0)
    """
    return ops.softmax(input, -1 if dim is None else dim, dtype=dtype)


def logsigmoid(input):
    """``log(sigmoid(input))``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.logsigmoid(ms.Tensor([1.0]))
    """
    return ops.logsigmoid(input)


def relu6(input, inplace=False):
    """``min(max(x, 0), 6)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.relu6(ms.Tensor([7.0]))
    """
    return _in_place(input, ops.relu6(input), inplace)


def relu_(input):
    """In-place ReLU.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.relu_(ms.Tensor([-1.0]))
    """
    return _in_place(input, ops.relu(input))


def sigmoid_(input):
    """In-place sigmoid.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.sigmoid_(ms.Tensor([0.0]))
    """
    return _in_place(input, ops.sigmoid(input))


def silu(input, inplace=False):
    """``x * sigmoid(x)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.silu(ms.Tensor([1.0]))
    """
    return _in_place(input, ops.silu(input), inplace)


def threshold(input, threshold, value, inplace=False):
    """``x`` where x > threshold, else ``value``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.threshold(ms.Tensor([0.5, 2.0]), 1.0, 0.0)
    """
    return _in_place(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):
    """In-place ``threshold``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.threshold_(ms.Tensor([0.5, 2.0]), 1.0, 0.0)
    """
    return _in_place(input, ops.threshold(input, threshold, value))

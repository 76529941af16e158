"""``mindspore.mint.nn.functional`` activations taking PyTorch's ``inplace``: each picks, as MindSpore does, the
op or its in-place entry (``InplaceElu``, ``InplaceHardtanh``, ``InplaceSiLU``, ``InplaceThreshold``), which stores
the result into ``input`` and returns it. Their ``*_`` forms and the other activations are op-table spellings."""
from sporax import ops
from sporax.ops.functional.inplace import inplace_elu, inplace_hardtanh, inplace_silu, inplace_threshold

__all__ = ["elu", "hardtanh", "relu6", "silu", "threshold"]


def elu(input, alpha=1.0, inplace=False):
    """ELU: ``x`` for x > 0, else ``alpha * (exp(x) - 1)``; in place when ``inplace``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.elu(ms.Tensor([-1.0, 1.0]))
    """
    return inplace_elu(input, alpha) if inplace else ops.elu(input, alpha)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """Clamp to [min_val, max_val]; in place when ``inplace``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.hardtanh(ms.Tensor([-2.0, 0.5]))
    """
    return inplace_hardtanh(input, min_val, max_val) if inplace else ops.hardtanh(input, min_val, max_val)


def relu6(input, inplace=False):
    """``min(max(x, 0), 6)`` (MindSpore's ``hardtanh(input, 0, 6)``); in place when ``inplace``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.relu6(ms.Tensor([7.0]))
    """
    return inplace_hardtanh(input, 0, 6) if inplace else ops.hardtanh(input, 0, 6)


def silu(input, inplace=False):
    """``x * sigmoid(x)``; in place when ``inplace``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.silu(ms.Tensor([1.0]))
    """
    return inplace_silu(input) if inplace else ops.silu(input)


def threshold(input, threshold, value, inplace=False):
    """``x`` where x > threshold, else ``value``; in place when ``inplace``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.threshold(ms.Tensor([0.5, 2.0]), 1.0, 0.0)
    """
    return inplace_threshold(input, threshold, value) if inplace else ops.threshold(input, threshold, value)

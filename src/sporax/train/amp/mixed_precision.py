"""Mixed precision: ``auto_mixed_precision`` levels O0-O3, ``custom_mixed_precision``, ``build_train_network``.

A Cell marked with ``to_float(float16)`` casts its float inputs (and its layers cast their
weights) to float16; Parameters stay float32 (the master weights), so gradients and the
optimizer work in float32. Cells on the black list (normalisations) stay float32; cells on
the white list run in float16 and hand float32 back to their neighbours (O1).
"""
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.boost import BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import Dense
from sporax.nn.layer.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose
from sporax.nn.layer.conv3d import Conv3d, Conv3dTranspose
from sporax.nn.layer.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm
from sporax.nn.layer.rnn import GRUCell, LSTMCell, RNNCell
from sporax.nn.wrap import TrainOneStepCell, TrainOneStepWithLossScaleCell, WithLossCell
from sporax.ops.operations.conv_backprop_ops import Conv2DBackpropInput
from sporax.ops.operations.math_counting_ops import Ger
from sporax.ops.operations.math_ops import BatchMatMul, MatMul
from sporax.ops.operations.nn_ops import Conv2D, Conv3D, PReLU, ReLU
from sporax.ops.operations.nn_spatial_ops import Conv2DTranspose, Conv3DTranspose
from sporax.train.amp.loss_scale import DynamicLossScaleManager, FixedLossScaleManager

# MindSpore 2.10's list, in its order: the Cells O1 wraps, then Primitives (listed only: O1 here wraps child Cells)
_WHITE_LIST = [Conv1d, Conv2d, Conv3d, Conv1dTranspose, Conv2dTranspose, Conv3dTranspose, Dense, LSTMCell, RNNCell,
               GRUCell, Conv2D, Conv3D, Conv2DTranspose, Conv3DTranspose, Conv2DBackpropInput, MatMul, BatchMatMul,
               PReLU, ReLU, Ger]
_BLACK_LIST = [BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm]
_LEVELS = ("O0", "O1", "O2", "O3", "auto")


def get_white_list():
    """The Cell classes O1 runs in low precision (a copy; edit it and pass it to custom_mixed_precision)."""
    return list(_WHITE_LIST)


def get_black_list():
    """The Cell classes O2 keeps in float32."""
    return list(_BLACK_LIST)


def _cast(value, dtype):
    target = mstype.to_numpy_dtype(dtype)
    if isinstance(value, Tensor):
        array = value._value
        return Tensor._wrap(array.astype(target)) if array.dtype.kind == "f" and array.dtype != target else value
    if isinstance(value, tuple):
        return tuple(_cast(item, dtype) for item in value)
    if isinstance(value, list):
        return [_cast(item, dtype) for item in value]
    return value


class _CastOutput(Cell):
    """Runs ``cell`` (its child ``_backbone``, as MindSpore names it) and casts its float outputs to ``dtype`` (its
    Parameters keep their names)."""

    def __init__(self, cell, dtype):
        super().__init__(auto_prefix=False)
        self.insert_child_to_cell("_backbone", cell)
        self._dtype = dtype

    def construct(self, *args, **kwargs):
        return _cast(self._backbone(*args, **kwargs), self._dtype)

    def __getattr__(self, name):
        # The converted Cell still reads as itself (MindSpore's 'auto'/O1 keep the Cell in place: the amp
        # features page reads model.dense.weight after auto_mixed_precision)
        try:
            return super().__getattr__(name)
        except AttributeError:
            inner = self.__dict__.get("_cells", {}).get("_backbone")
            if inner is None or name.startswith("__"):
                raise
            return getattr(inner, name)


class _OutputTo32(_CastOutput):
    """MindSpore's name of the wrapper O2/O3 put around the network (outputs back to float32)."""


class _OutputTo16(_CastOutput):
    """MindSpore's name of the wrapper O2 puts around a black-list Cell (outputs back to the low dtype)."""


def _cast_output(cell, dtype):
    return (_OutputTo32 if dtype == mstype.float32 else _OutputTo16)(cell, dtype)


def _wrap_children(network, classes, low_dtype, inner_dtype, outer_dtype):
    """Give every descendant Cell of ``classes`` precision ``inner_dtype`` and outputs in ``outer_dtype``."""
    for _, parent in list(network.cells_and_names()):
        for name, child in list(parent._cells.items()):
            if child is not None and isinstance(child, tuple(classes)) and not isinstance(parent, _CastOutput):
                child.to_float(inner_dtype)
                parent._cells[name] = _cast_output(child, outer_dtype)


def _check_dtype(dtype, function):
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"For '{function}', dtype must be mindspore.float16 or mindspore.bfloat16, got {dtype!r}.")


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Convert ``network`` to mixed precision; returns the network to use.

    Args:
        network (Cell): the network.
        amp_level (str): 'O0' nothing; 'O1' white-list Cells in ``dtype``; 'O2' everything in ``dtype``
            except black-list Cells; 'O3' everything in ``dtype``; 'auto' as O1.
        dtype (mindspore.dtype): float16 or bfloat16.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For 'auto_mixed_precision', network must be a Cell, got {type(network).__name__}.")
    if amp_level not in _LEVELS:
        raise ValueError(f"For 'auto_mixed_precision', amp_level must be one of {_LEVELS}, got {amp_level!r}.")
    _check_dtype(dtype, "auto_mixed_precision")
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        _wrap_children(network, _WHITE_LIST, dtype, dtype, mstype.float32)
        return network
    network.to_float(dtype)
    if amp_level == "O2":
        _wrap_children(network, _BLACK_LIST, dtype, mstype.float32, dtype)
    return _cast_output(network, mstype.float32)


# MindSpore's name of the classes O2 keeps in float32 (mindspore.train.amp.AMP_BLACK_LIST).
AMP_BLACK_LIST = _BLACK_LIST


def _auto_black_list(network, black_list, dtype):
    """MindSpore's O2 step: ``network`` in ``dtype``, each ``black_list`` Cell in float32 with its outputs cast
    to ``dtype``; the same network is returned (its outputs stay in ``dtype``, unlike O2's)."""
    _check_dtype(dtype, "_auto_black_list")
    network.to_float(dtype)
    _wrap_children(network, black_list, dtype, mstype.float32, dtype)
    return network


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=mstype.float16):
    """Mixed precision from your own lists: white-list Cells run in ``dtype`` (or, with a
    black list, everything but black-list Cells does)."""
    if (white_list is None) == (black_list is None):
        raise ValueError("For 'custom_mixed_precision', pass exactly one of white_list and black_list.")
    _check_dtype(dtype, "custom_mixed_precision")
    if white_list is not None:
        _wrap_children(network, white_list, dtype, dtype, mstype.float32)
        return network
    network.to_float(dtype)
    _wrap_children(network, black_list, dtype, mstype.float32, dtype)
    return _cast_output(network, mstype.float32)


_LEVEL_DEFAULTS = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
}


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """A training Cell with mixed precision and loss scaling, as Model builds for ``amp_level``.

    Args:
        network (Cell): the network.
        optimizer (Optimizer): the optimizer.
        loss_fn (Cell): the loss (computed in float32). Default: None (the network returns the loss).
        level (str): 'O0', 'O1', 'O2', 'O3' or 'auto'.
        boost_level (str): 'O0', or 'O1'/'O2' for ``mindspore.boost``'s train steps (``BoostTrainOneStepCell``).
        kwargs: ``keep_batchnorm_fp32``, ``cast_model_type``, ``loss_scale_manager`` override the level's
            defaults (O2 uses a DynamicLossScaleManager; ``loss_scale_manager=None`` turns scaling off).
    """
    if level not in _LEVELS:
        raise ValueError(f"For 'build_train_network', level must be one of {_LEVELS}, got {level!r}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got {boost_level}.")
    step, scaled_step = TrainOneStepCell, TrainOneStepWithLossScaleCell
    if boost_level != "O0":
        step, scaled_step = BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell
    settings = dict(_LEVEL_DEFAULTS[level])
    settings.update({key: value for key, value in kwargs.items() if value is not None and key in settings})
    if "loss_scale_manager" in kwargs and kwargs["loss_scale_manager"] is None:
        # An explicit None means no loss scaling: a TrainOneStepCell that returns the loss only.
        settings["loss_scale_manager"] = None
    cast_type = settings["cast_model_type"]
    if level in ("O1", "auto"):
        network = auto_mixed_precision(network, "O1")
    elif cast_type in (mstype.float16, mstype.bfloat16):
        network = auto_mixed_precision(network, "O2" if settings["keep_batchnorm_fp32"] else "O3", cast_type)
    if loss_fn is not None:
        network = WithLossCell(network, loss_fn)
    manager = settings["loss_scale_manager"]
    if manager == "dynamic":
        manager = DynamicLossScaleManager()
    if manager is None:
        train_network = step(network, optimizer)
    elif isinstance(manager, FixedLossScaleManager) and not manager.get_drop_overflow_update():
        # As MindSpore: the gradients stay scaled; the optimizer's own ``loss_scale`` (the user sets it to
        # the manager's value) divides them back, so the optimizer is left as it was built.
        train_network = step(network, optimizer, sens=manager.get_loss_scale())
    else:
        train_network = scaled_step(network, optimizer, scale_sense=manager.get_update_cell())
    # As MindSpore: the returned Cell (and the network in it) is in training mode, so BatchNorm
    # normalises with batch statistics and updates its moving ones, Dropout drops.
    return train_network.set_train()

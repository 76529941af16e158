"""Checkpoint helpers of ``mindspore.train.serialization``: ``async_ckpt_thread_status``,
``tensor_to_np_type`` and ``tensor_to_ms_type``."""
from sporax.core import dtype as mstype
from sporax.io.atomic import background_saves
from sporax.io.ckpt_codec import NUMPY_BY_NAME


def async_ckpt_thread_status():
    """Whether a checkpoint is still being written in the background (``save_checkpoint(async_save=True)``).

    Example:
        >>> import sporax as ms
        >>> ms.async_ckpt_thread_status()
        False
    """
    thread = background_saves._thread
    return thread is not None and thread.is_alive()


def tensor_to_np_type(tensor_type_str):
    """The NumPy scalar type of a checkpoint dtype name ('Float32' -> numpy.float32; 'str' -> 'U').

    Args:
        tensor_type_str (str): the dtype name a ``.ckpt`` file stores.

    Returns:
        the NumPy type, or None for an unknown name.
    """
    if tensor_type_str == "str":
        return "U"
    dtype = NUMPY_BY_NAME.get(tensor_type_str)
    return None if dtype is None else dtype.type


# The MindSpore dtype of each dtype name a ``.ckpt`` file stores (MindSpore's own name for it);
# 'str' is a string parameter and 'Int4' the packed 4-bit integers (``qint4x2``).
tensor_to_ms_type = {
    "Int8": mstype.int8, "UInt8": mstype.uint8, "Int16": mstype.int16, "UInt16": mstype.uint16,
    "Int32": mstype.int32, "UInt32": mstype.uint32, "Int64": mstype.int64, "UInt64": mstype.uint64,
    "Float16": mstype.float16, "Float32": mstype.float32, "Float64": mstype.float64, "Bool": mstype.bool_,
    "str": mstype.string, "BFloat16": mstype.bfloat16, "Int4": mstype.qint4x2,
}

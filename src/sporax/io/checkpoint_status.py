"""Checkpoint helpers of ``mindspore.train.serialization``: ``async_ckpt_thread_status`` and
``tensor_to_np_type``."""
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

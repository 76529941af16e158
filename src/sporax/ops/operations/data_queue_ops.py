"""``GetNext``: read the next batch from a named data queue (MindSpore's device-queue read).

The queue is fed by ``dataset.device_que(queue_name=...).send()`` (``sporax.core.data_queue``).
Eagerly (PyNative) the batch is taken from the queue and checked against the declared types and
shapes. Inside compiled code (GRAPH mode, ``ms.jit``) the read is an ordered ``io_callback``:
the compiled program stays a pure function of its inputs except for this one declared host
effect, which runs once per execution, in program order.

Example:
    >>> import numpy as np
    >>> import sporax.dataset as ds
    >>> from sporax import ops, float32
    >>> data = ds.NumpySlicesDataset(np.ones((4, 3), np.float32), shuffle=False).batch(2)
    >>> transfer = data.device_que()
    >>> transfer.send(1)
    >>> (batch,) = ops.GetNext([float32], [(2, 3)], 1, transfer.queue_name)()
    >>> batch.shape
    (2, 3)
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from sporax.core import data_queue
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.core.context import get_context


def _timeout():
    return float(get_context("op_timeout"))


# How long GetNext waits for its queue to appear. MindSpore 2.10 fails at once when no dataset feeds
# the queue (GPU: "Queue(name) Open Failed"); send() creates the queue before it returns, so a short
# grace only covers a sender on another thread, and a script that never sends fails in seconds, not
# after op_timeout (900 s).
_OPEN_GRACE = 5.0


class GetNext(Primitive):
    """Return the next batch from the data queue ``shared_name``.

    Args:
        types (list[:class:`mindspore.dtype`]): the dtype of each column.
        shapes (list[tuple[int]]): the shape of each column (-1: any size, eager only).
        output_num (int): the number of columns.
        shared_name (str): the queue's name (``TransferDataset.queue_name``).

    Outputs:
        tuple[Tensor], one per column.

    Raises:
        RuntimeError: a batch does not match ``types``/``shapes``, the queue was closed and is
            empty (its data ended or its pipeline failed), or no batch arrived within
            ``get_context("op_timeout")`` seconds.
    """

    @prim_attr_register
    def __init__(self, types, shapes, output_num, shared_name):
        for name, value in (("types", types), ("shapes", shapes)):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"For 'GetNext', the type of '{name}' should be one of '['list', "
                                f"'tuple']', but got type '{type(value).__name__}'.")
        if len(types) != len(shapes):
            raise ValueError(f"For 'GetNext', the types length should be = shapes length: "
                             f"{len(shapes)}, but got {len(types)}.")
        if isinstance(output_num, bool) or not isinstance(output_num, int):
            raise TypeError(f"For 'GetNext', the type of 'output_num' should be 'int', but got type "
                            f"'{type(output_num).__name__}'.")
        self.types, self.shapes = list(types), [tuple(shape) for shape in shapes]
        self.shared_name = shared_name
        self._dtypes = None

    def _numpy_dtypes(self):
        if self._dtypes is None:
            try:
                self._dtypes = [np.dtype(mstype.to_numpy_dtype(mstype.normalize(t))) for t in self.types]
            except Exception:
                raise TypeError(f"For 'GetNext', every item of 'types' must be a mindspore dtype, but "
                                f"got {self.types}.") from None
        return self._dtypes

    def _read(self):
        """The next batch from the queue as NumPy arrays, checked against types and shapes."""
        timeout = _timeout()
        try:
            batch = data_queue.find(self.shared_name, min(timeout, _OPEN_GRACE)).get(timeout)
        except data_queue.QueueClosed as exc:
            raise RuntimeError(f"For 'GetNext', {exc} No more batches will come: send more epochs "
                               "(send(num_epochs)) or stop reading after the last batch.") from None
        except TimeoutError as exc:
            raise RuntimeError(f"For 'GetNext', {exc} Send a dataset to it first with "
                               f"dataset.device_que(queue_name='{self.shared_name}').send().") from None
        dtypes = self._numpy_dtypes()
        if len(batch) != len(dtypes):
            raise RuntimeError(f"For 'GetNext', the batches in queue '{self.shared_name}' have "
                               f"{len(batch)} columns, but {len(dtypes)} types were declared.")
        for i, (column, dtype, shape) in enumerate(zip(batch, dtypes, self.shapes)):
            if column.dtype != dtype:
                raise RuntimeError(f"For 'GetNext', column {i} of the batch from queue "
                                   f"'{self.shared_name}' has type {column.dtype}, but types[{i}] is "
                                   f"{self.types[i]}.")
            if len(shape) != column.ndim or any(want not in (-1, got)
                                                for want, got in zip(shape, column.shape)):
                raise RuntimeError(f"For 'GetNext', column {i} of the batch from queue "
                                   f"'{self.shared_name}' has shape {column.shape}, but shapes[{i}] "
                                   f"is {shape}.")
        return tuple(batch)

    def __call__(self):
        if isinstance(jnp.zeros(()), jax.core.Tracer):  # being compiled (GRAPH mode or jit)
            if any(-1 in shape for shape in self.shapes):
                raise NotImplementedError(
                    "GetNext with a dynamic (-1) dimension inside compiled code: a compiled "
                    "program needs static shapes; declare the full shapes or run in PyNative.")
            specs = tuple(jax.ShapeDtypeStruct(shape, dtype)
                          for shape, dtype in zip(self.shapes, self._numpy_dtypes()))
            arrays = io_callback(self._read, specs, ordered=True)
        else:
            arrays = [jnp.asarray(array) for array in self._read()]
        return tuple(Tensor._wrap(array) for array in arrays)

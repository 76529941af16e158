"""``GetNextSingleOp``: a Cell that reads the next batch from a data queue."""
from sporax import ops
from sporax.nn.cell import Cell


class GetNextSingleOp(Cell):
    """Return the next batch from the data queue ``queue_name`` (``ops.GetNext`` as a Cell).

    Args:
        dataset_types (list[:class:`mindspore.dtype`]): the dtype of each column.
        dataset_shapes (list[tuple[int]]): the shape of each column.
        queue_name (str): the queue's name (``TransferDataset.queue_name``).

    Inputs:
        None.

    Outputs:
        tuple[Tensor], the batch's columns.

    Example:
        >>> import numpy as np
        >>> import sporax.dataset as ds
        >>> from sporax import nn, float32, int32
        >>> data = ds.NumpySlicesDataset((np.ones((4, 3), np.float32), np.arange(4, dtype=np.int32)),
        ...                              column_names=["x", "y"], shuffle=False).batch(2)
        >>> transfer = data.device_que()
        >>> transfer.send(1)
        >>> x, y = nn.GetNextSingleOp([float32, int32], [(2, 3), (2,)], transfer.queue_name)()
        >>> y.asnumpy().tolist()
        [0, 1]
    """

    def __init__(self, dataset_types, dataset_shapes, queue_name):
        super().__init__()
        self.get_next = ops.GetNext(dataset_types, dataset_shapes, len(dataset_types), queue_name)

    def construct(self):
        return self.get_next()

"""``CTCGreedyDecoder``: best-path decoding of CTC logits into a sparse result.

The decoded length is data-dependent (as MindSpore's CPU kernel, which sizes its outputs at run
time), so it computes on host values; under GRAPH mode the caller runs eagerly.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.ctc_greedy_decoder import CTCGreedyDecoder
    >>> logits = np.array([[[2.0, 0.0, 0.0]], [[0.0, 3.0, 0.0]]], np.float32)  # (time, batch, classes)
    >>> indices, values, shape, log_probability = CTCGreedyDecoder()(Tensor(logits), Tensor(np.array([2], np.int32)))
    >>> values.asnumpy().tolist(), shape.asnumpy().tolist(), log_probability.asnumpy().tolist()
    ([0, 1], [1, 2], [[-5.0]])
"""
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of
from sporax.ops.primitive import Primitive, prim_attr_register


class CTCGreedyDecoder(Primitive):
    """Greedy (best path) CTC decoding; the last class is the blank.

    Args:
        merge_repeated (bool): collapse a class repeated on consecutive steps. Default: True.

    Inputs:
        - **inputs** (Tensor) - (max_time, batch_size, num_classes) float logits.
        - **sequence_length** (Tensor) - (batch_size,) int32, each at most max_time.

    Outputs:
        - **decoded_indices** (Tensor) - (total, 2) Int64 (batch, position) of each decoded label.
        - **decoded_values** (Tensor) - (total,) Int64 labels.
        - **decoded_shape** (Tensor) - (2,) Int64 (batch_size, longest decoded length).
        - **log_probability** (Tensor) - (batch_size, 1): minus the sum of each step's best logit.
    """

    @prim_attr_register
    def __init__(self, merge_repeated=True):
        if not isinstance(merge_repeated, bool):
            raise TypeError(f"For 'CTCGreedyDecoder', 'merge_repeated' must be a bool, but got {merge_repeated!r}.")
        self.merge_repeated = merge_repeated

    def __call__(self, inputs, sequence_length):
        logits = np.asarray(array_of("CTCGreedyDecoder", "inputs", inputs))
        lengths = np.asarray(array_of("CTCGreedyDecoder", "sequence_length", sequence_length))
        if logits.ndim != 3 or lengths.shape != (logits.shape[1],):
            raise ValueError("For 'CTCGreedyDecoder', 'inputs' must be (max_time, batch_size, num_classes) and "
                             f"'sequence_length' (batch_size,), but got {logits.shape} and {lengths.shape}.")
        max_time, batch_size, num_classes = logits.shape
        for index, length in enumerate(lengths.tolist()):
            if length > max_time:
                raise RuntimeError(f"For 'CTCGreedyDecoder', sequence_length[{index}] should be less than "
                                   f"{max_time + 1}, but got {length}.")
        blank = num_classes - 1
        best = logits.argmax(axis=2)
        indices, values, longest = [], [], 0
        log_probability = np.zeros((batch_size, 1), logits.dtype)
        for batch in range(batch_size):
            length = int(lengths[batch])
            log_probability[batch, 0] = -logits[np.arange(length), batch, best[:length, batch]].sum()
            decoded, previous = [], None
            for step in range(length):
                label = int(best[step, batch])
                if label != blank and not (self.merge_repeated and label == previous):
                    decoded.append(label)
                previous = label
            indices.extend([batch, position] for position in range(len(decoded)))
            values.extend(decoded)
            longest = max(longest, len(decoded))
        return (Tensor(np.array(indices, np.int64).reshape(-1, 2)), Tensor(np.array(values, np.int64)),
                Tensor(np.array([batch_size, longest], np.int64)), Tensor(log_probability))

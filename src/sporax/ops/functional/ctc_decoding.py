"""Best-path CTC decoding (``ops.ctc_greedy_decoder``, ``ops.CTCGreedyDecoder``) into MindSpore's sparse result.

At each time step below ``sequence_length`` the most likely class is taken; with ``merge_repeated`` consecutive
equal classes collapse to one, and the blank (the last class) is dropped. The result: ``decoded_indices``
(total, 2) of (batch, position), ``decoded_values`` (total,), ``decoded_shape`` [batch, longest], all Int64,
and ``log_probability`` (batch, 1), minus the sum of the chosen logits. Its size depends on the data, so the
kernel reads its inputs on the host (an ``eager`` entry): inside ms.jit or GRAPH_MODE the calling function runs
eagerly, as MindSpore runs its dynamic-shape ops.
"""
import itertools

import numpy as np

from sporax.ops.face_inputs import concrete
from sporax.ops.op_table import FLOAT, INDEX, Sample, op

_NAME = "CTCGreedyDecoder"


def _samples(dtype):
    """Float32 and Float64 logits only: MindSpore 2.10's CPU kernel refuses Float16 (a TypeError)."""
    if dtype not in ("float32", "float64"):
        return []
    logits = np.random.RandomState(3).randn(4, 3, 5).astype(dtype)
    return [Sample((logits, np.array([4, 2, 0], np.int32))),
            Sample((logits, np.array([4, 2, 3], np.int32)), {"merge_repeated": False})]


def _reference(inputs, sequence_length, merge_repeated=True):
    """Decoding by ``itertools.groupby`` over each example's best path (an independent spelling of the kernel)."""
    blank = inputs.shape[2] - 1
    indices, values, log_probability = [], [], []
    for example, length in enumerate(np.asarray(sequence_length).tolist()):
        path = inputs[:length, example].argmax(-1).tolist()
        runs = [label for label, _ in itertools.groupby(path)] if merge_repeated else path
        labels = [label for label in runs if label != blank]
        indices += [[example, position] for position in range(len(labels))]
        values += labels
        log_probability.append([-inputs[:length, example].max(-1).sum()])
    longest = max((position + 1 for _, position in indices), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([inputs.shape[1], longest], np.int64), np.array(log_probability))


@op(inputs=("inputs", "sequence_length"), dtypes=FLOAT, input_dtypes={"sequence_length": INDEX},
    primitive=_NAME, primitive_attrs=("merge_repeated",), eager=True, grad_check=False,
    samples=_samples, reference=_reference)
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Greedy CTC decoding of (max_time, batch, classes) logits; the last class is the blank.

    Args:
        inputs (Tensor): (max_time, batch_size, num_classes) Float32 or Float64 logits.
        sequence_length (Tensor): (batch_size,) Int32, each at most max_time.
        merge_repeated (bool): collapse consecutive equal classes. Default: True.

    Returns:
        ``(decoded_indices, decoded_values, decoded_shape, log_probability)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]], np.float32)
        >>> ops.ctc_greedy_decoder(Tensor(x), Tensor(np.array([2, 2], np.int32)))[1]
        Tensor(shape=[3], dtype=Int64, value= [0, 1, 0])
    """
    if not isinstance(merge_repeated, bool):
        raise TypeError(f"For '{_NAME}', the type of 'merge_repeated' should be 'bool', but got type "
                        f"'{type(merge_repeated).__name__}'.")
    logits = concrete(_NAME, "inputs", inputs)
    lengths = concrete(_NAME, "sequence_length", sequence_length)
    if logits.dtype not in (np.float32, np.float64):
        raise TypeError(f"For '{_NAME}', 'inputs' must be a Float32 or Float64 Tensor, but got {logits.dtype}: "
                        "cast it with ops.cast(inputs, mindspore.float32).")
    if lengths.dtype != np.int32:
        raise TypeError(f"For '{_NAME}', 'sequence_length' must be an Int32 Tensor, but got {lengths.dtype}.")
    if logits.ndim != 3:
        raise ValueError(f"For '{_NAME}', 'inputs' must be (max_time, batch_size, num_classes), but got shape "
                         f"{logits.shape}.")
    max_time, batch, classes = logits.shape
    if lengths.shape != (batch,):
        raise ValueError(f"For '{_NAME}', 'sequence_length' must have shape ({batch},), but got {lengths.shape}.")
    for index, length in enumerate(lengths):
        if length > max_time:
            raise RuntimeError(f"For '{_NAME}', sequence_length[{index}] {length} should be less than {max_time}.")
    blank = classes - 1
    best = logits.argmax(-1)  # (max_time, batch)
    indices, values, longest = [], [], 0
    log_probability = np.zeros((batch, 1), logits.dtype)
    for example in range(batch):
        steps = int(lengths[example])
        log_probability[example, 0] = -logits[:steps, example].max(-1).sum()
        decoded, previous = [], None
        for step in range(steps):
            label = int(best[step, example])
            if label != blank and not (merge_repeated and label == previous):
                decoded.append(label)
            previous = label
        indices.extend((example, position) for position in range(len(decoded)))
        values.extend(decoded)
        longest = max(longest, len(decoded))
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values, np.int64),
            np.asarray([batch, longest], np.int64), log_probability)

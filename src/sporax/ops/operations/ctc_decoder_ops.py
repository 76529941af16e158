"""``ops.CTCGreedyDecoder`` / ``ops.ctc_greedy_decoder``: best-path CTC decoding into a sparse result.

At each time step below ``sequence_length`` the most likely class is taken; with ``merge_repeated``
consecutive equal classes collapse to one, and the blank (the last class) is dropped. The result is
MindSpore's sparse form: ``decoded_indices`` (total, 2) of (batch, position), ``decoded_values``
(total,), ``decoded_shape`` [batch, longest], all int64, and ``log_probability`` (batch, 1), minus the
sum of the chosen logits. Its size depends on the data, so it runs on concrete values: inside a trace
it raises NotImplementedError, and ms.jit / GRAPH_MODE then run the calling function eagerly.
"""
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive, prim_attr_register

_NAME = "CTCGreedyDecoder"


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Greedy CTC decoding of ``inputs`` (max_time, batch, num_classes) float logits with per-example
    ``sequence_length`` (batch,) int32; returns ``(decoded_indices, decoded_values, decoded_shape,
    log_probability)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> x = np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]], np.float32)
        >>> ctc_greedy_decoder(Tensor(x), Tensor(np.array([2, 2], np.int32)))[1]
        Tensor(shape=[3], dtype=Int64, value= [0, 1, 0])
    """
    logits = array_of(_NAME, "inputs", inputs)
    lengths = array_of(_NAME, "sequence_length", sequence_length)
    try:
        logits, lengths = np.asarray(logits), np.asarray(lengths)
    except Exception as error:  # a tracer: the output size depends on the values
        raise NotImplementedError(
            f"For '{_NAME}', the decoded size depends on the data, so it cannot run inside compiled code "
            "(GRAPH_MODE or ms.jit); decode outside the compiled network (PyNative).") from error
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
    return (wrap(np.asarray(indices, np.int64).reshape(-1, 2)), wrap(np.asarray(values, np.int64)),
            wrap(np.asarray([batch, longest], np.int64)), wrap(log_probability))


class CTCGreedyDecoder(Primitive):
    """Greedy CTC decoding (``ctc_greedy_decoder``).

    Args:
        merge_repeated (bool): collapse consecutive equal classes. Default: True.

    Inputs:
        - **inputs** (Tensor) - (max_time, batch_size, num_classes) float logits; the last class is the blank.
        - **sequence_length** (Tensor) - (batch_size,) int32, each at most max_time.

    Outputs:
        ``(decoded_indices, decoded_values, decoded_shape, log_probability)``.
    """

    @prim_attr_register
    def __init__(self, merge_repeated=True):
        if not isinstance(merge_repeated, bool):
            raise TypeError(f"For '{_NAME}', 'merge_repeated' must be bool, but got {type(merge_repeated).__name__}.")
        self.merge_repeated = merge_repeated

    def __call__(self, inputs, sequence_length):
        return ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


__all__ = ["CTCGreedyDecoder", "ctc_greedy_decoder"]

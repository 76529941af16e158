"""``nn.MultiFieldEmbeddingLookup``: weighted embedding lookups merged per field (sparse CTR features).

Each sample has ``seq`` (index, value, field id) triples. The looked-up rows are scaled by their
values and merged per (sample, field) with ``SUM``, ``MEAN`` (the sum divided by the sum of the
|values| of that field, 0 for an empty field) or ``MAX`` (over the triples whose value is non-zero,
0 for a field without any), as MindSpore 2.10 computes it.
"""
import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.layer.embedding import EmbeddingLookup

_LOWEST_FLOAT32 = -3.402823466e38  # MindSpore's fill for ignored entries under MAX


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Embedding lookups weighted by ``input_values`` and merged per field.

    Args:
        vocab_size (int), embedding_size (int): the table's shape.
        field_size (int): the number of fields (the output's second dimension).
        param_init (Union[Tensor, str, Initializer, numbers.Number]): the table's initial value. Default: ``'normal'``.
        target (str): ``'CPU'`` or ``'DEVICE'``. Default: ``'CPU'``.
        slice_mode (str): where MindSpore would split the table in parallel modes. Default: ``'batch_slice'``.
        feature_num_list (tuple): for ``'field_slice'``. Default: ``None``.
        max_norm (float): looked-up rows longer than this are scaled to it. Default: ``None``.
        sparse (bool): Default: ``True``.
        operator (str): ``'SUM'``, ``'MEAN'`` or ``'MAX'``. Default: ``'SUM'``.
        dtype (mindspore.dtype): the table's dtype. Default: ``mindspore.float32``.

    Inputs:
        - **input_indices** (Tensor) - (batch, seq) int32/int64 rows of the table.
        - **input_values** (Tensor) - (batch, seq) float32 weights (0 marks padding).
        - **field_ids** (Tensor) - (batch, seq) int32 field of each entry, in [0, field_size).

    Outputs:
        Tensor of shape (batch, field_size, embedding_size).

    Example:
        >>> import numpy as np, sporax as ms
        >>> net = ms.nn.MultiFieldEmbeddingLookup(4, 2, 2, param_init="ones")
        >>> ids = ms.Tensor(np.array([[0, 1, 2]], np.int32))
        >>> values = ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
        >>> fields = ms.Tensor(np.array([[0, 0, 1]], np.int32))
        >>> net(ids, values, fields).asnumpy().tolist()
        [[[3.0, 3.0], [3.0, 3.0]]]
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", feature_num_list=None, max_norm=None, sparse=True, operator="SUM",
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        if isinstance(field_size, bool) or not isinstance(field_size, int) or field_size <= 0:
            raise ValueError(f"For 'MultiFieldEmbeddingLookup', 'field_size' must be a positive int, but got "
                             f"{field_size!r}.")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For 'MultiFieldEmbeddingLookup', 'operator' must be one of ['SUM', 'MAX', 'MEAN'], "
                             f"but got {operator!r}.")
        self.field_size = field_size
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        name = "MultiFieldEmbeddingLookup"
        for label, value, kinds in (("input_indices", input_indices, ("int32", "int64")),
                                    ("input_values", input_values, ("float32",)),
                                    ("field_ids", field_ids, ("int32",))):
            if not isinstance(value, Tensor) or value.ndim != 2:
                raise ValueError(f"For '{name}', '{label}' must be a 2-D Tensor (batch, seq), but got "
                                 f"{getattr(value, 'shape', type(value).__name__)}.")
            if str(value._value.dtype) not in kinds:
                raise TypeError(f"For '{name}', '{label}' must be of dtype {' or '.join(kinds)}, but got "
                                f"{value._value.dtype}.")
        rows = super().construct(input_indices)._value
        values = input_values._value
        batch, seq = values.shape
        segments = batch * self.field_size
        # One segment per (sample, field): field id + sample * field_size.
        segment = (field_ids._value + (jnp.arange(batch, dtype=jnp.int32) * self.field_size)[:, None]).reshape(-1)
        weighted = (values[..., None] * rows).reshape(batch * seq, -1)
        flat_values = values.reshape(-1)
        if self.operator == "MAX":
            masked = weighted + jnp.where(flat_values == 0, _LOWEST_FLOAT32, 0.0)[:, None].astype(weighted.dtype)
            merged = jax.ops.segment_max(masked, segment, segments)
            present = jax.ops.segment_sum(jnp.abs(flat_values), segment, segments) != 0
            merged = jnp.where(present[:, None], merged, 0).astype(weighted.dtype)
        else:
            merged = jax.ops.segment_sum(weighted, segment, segments)
            if self.operator == "MEAN":
                count = jax.ops.segment_sum(jnp.abs(flat_values), segment, segments)[:, None]
                merged = jnp.where(count == 0, 0, merged / jnp.where(count == 0, 1, count)).astype(weighted.dtype)
        return Tensor._wrap(merged.reshape(batch, self.field_size, -1))

"""Element-wise functions of sparse tensors: ``ops.coo_abs`` ... ``ops.csr_tanh``, op-table entries made
from the dense entries.

``coo_<name>``/``csr_<name>`` is the dense op ``<name>`` applied to the stored values, keeping the sparsity
structure (so, as in MindSpore, ``coo_exp`` does not fill the implicit zeros with ``exp(0)``). Each is
generated from the dense entry: its kernel is the dense kernel on the values, its dtype rule the dense rule
(MindSpore's ``coo_sigmoid`` refuses Int32 values exactly where ``sigmoid`` refuses an Int32 Tensor), its
reference the dense NumPy reference on the values.

Example:
    >>> from sporax import COOTensor, Tensor, ops
    >>> coo = COOTensor(Tensor([[0, 1]]), Tensor([-2.0]), (2, 2))
    >>> ops.coo_abs(coo).to_dense().asnumpy().tolist()
    [[0.0, 2.0], [0.0, 0.0]]
"""
import inspect

import numpy as np

from sporax.ops import op_table
from sporax.ops.functional import activation, comparison, math
from sporax.ops.sparse_operands import COOArrays, CSRArrays, dense_of

# The dense op of each suffix (``coo_neg`` is ``neg``), in MindSpore's order of the names.
DENSE = {
    "abs": math.abs, "acos": math.acos, "acosh": math.acosh, "asin": math.asin, "asinh": math.asinh,
    "atan": math.atan, "atanh": math.atanh, "ceil": math.ceil, "cos": math.cos, "cosh": math.cosh,
    "exp": math.exp, "expm1": math.expm1, "floor": math.floor, "inv": math.inv,
    "isfinite": comparison.isfinite, "isinf": comparison.isinf, "isnan": comparison.isnan, "log": math.log,
    "log1p": math.log1p, "neg": math.neg, "relu": activation.relu, "relu6": activation.relu6,
    "round": math.round, "sigmoid": math.sigmoid, "sin": math.sin, "sinh": math.sinh,
    "softsign": activation.softsign, "sqrt": math.sqrt, "square": math.square, "tan": math.tan,
    "tanh": math.tanh,
}

# The stored positions of the samples: a 3x4 matrix with an empty column and two entries in row 1.
_ROWS, _COLUMNS = np.array([0, 1, 1, 2]), np.array([1, 0, 3, 2])
_INDPTR = np.array([0, 1, 3, 4], np.int32)


def _samples(dense, rule):
    """One sample: the dense entry's first (3, 4) sample read at the stored positions (values in the
    dense op's domain). Float32 only: the values go through the dense kernel, whose rounding in the
    half dtypes the dense entry's own samples check."""

    def make(dtype):
        if dtype != "float32":
            return []
        values = dense.samples(dtype)[0].arrays[0][_ROWS, _COLUMNS]
        if rule == op_table.COO:
            record = COOArrays(np.stack([_ROWS, _COLUMNS], axis=1).astype(np.int32), values, (3, 4))
        else:
            record = CSRArrays(_INDPTR, _COLUMNS.astype(np.int32), values, (3, 4))
        return [op_table.Sample((record,))]

    return make


def _reference(dense):
    def reference(x):
        return dense_of(x.with_values(np.asarray(dense.reference(x.values))))

    return reference


def _declare(prefix, rule, suffix, dense_function):
    """The entry ``<prefix>_<suffix>``: ``dense_function`` on the values of a sparse ``x``."""
    dense = dense_function.entry
    kind = "COOTensor" if rule == op_table.COO else "CSRTensor"

    def kernel(x):
        return x.with_values(dense.kernel(x.values))

    kernel.__name__ = kernel.__qualname__ = f"{prefix}_{suffix}"
    kernel.__module__ = __name__
    kernel.__doc__ = (f"``ops.{suffix}`` of the stored values of the {kind} ``x``; the structure is kept.\n\n"
                      f"Example: ``ops.{prefix}_{suffix}(x).values`` is ``ops.{suffix}(x.values)``.")
    kernel.__signature__ = inspect.Signature([inspect.Parameter("x", inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    return op_table.op(inputs="x", dtypes=dense.dtypes, input_dtypes={"x": rule}, samples=_samples(dense, rule),
                       reference=_reference(dense), grad_check=False)(kernel)


for _suffix, _dense_function in DENSE.items():
    globals()[f"coo_{_suffix}"] = _declare("coo", op_table.COO, _suffix, _dense_function)
    globals()[f"csr_{_suffix}"] = _declare("csr", op_table.CSR, _suffix, _dense_function)
del _suffix, _dense_function

"""The ``mint`` functions that spell an op PyTorch's way, generated from the op table's ``spelling`` rows.

An entry declares its ``mint`` spellings beside its kernel (``mint=spelling("amax", "input, dim=(),
keepdim=False", axis="None if dim == () else dim", keep_dims="keepdim")``); this module makes each one
function (``faces.spelled``) and ``sporax.mint``'s namespaces re-export them by name. A spelling exported
by several namespaces (``mint.special.log_softmax`` and ``mint.nn.functional.log_softmax``) is one object.

Example:
    >>> from sporax import Tensor
    >>> from sporax.mint.spellings import SPELLED
    >>> SPELLED["mint"]["amax"](Tensor([[1.0, 3.0]]), 1).asnumpy().tolist()
    [3.0]
"""
import sporax.ops  # noqa: F401  (every entry is declared once its namespace is imported)
from sporax.ops.faces import spelled
from sporax.ops.op_table import entries

NAMESPACES = ("mint", "mint.nn.functional", "mint.linalg", "mint.special")


def _generate():
    faces = {namespace: {} for namespace in NAMESPACES}
    for entry in entries():
        for row in entry.spellings:
            function = spelled(entry, row)
            for namespace in row.namespaces:
                if row.name in faces[namespace]:
                    raise ValueError(f"op table: {namespace}.{row.name} is spelled twice "
                                     f"(ops.{faces[namespace][row.name].entry.name} and ops.{entry.name})")
                faces[namespace][row.name] = function
    return faces


SPELLED = _generate()


# The public mint functions that are neither an entry's own face nor a spelling: overloads (one name for several
# ops, chosen by the call) and small compositions that call entries only. ``tests/mint/test_mint_coverage.py``
# fails for a mint function in none of the three, and for a name listed here that has become a face.
ADAPTERS = {
    "mint.max": "overload: amax over all elements, max along dim with indices, maximum with another Tensor",
    "mint.min": "overload: amin over all elements, min along dim with indices, minimum with another Tensor",
    "mint.norm": "overload: ops.norm for 'nuc', ops.vector_norm for every other p, as MindSpore's norm_ext",
    "mint.randint": "overload: randint(high, size) or randint(low, high, size), told apart by the count",
    "mint.randint_like": "overload: randint_like(input, high) or (input, low, high), by the count",
    "mint.median": "without dim it answers one value, the entry answers (values, indices) along an axis",
    "mint.bincount": "counts in Int64 (MindSpore's BincountExt) where ops.bincount's entry counts in Float32",
    "mint.multinomial": "indices in Int64 where ops.multinomial's entry gives Int32 (MindSpore's own difference)",
    "mint.allclose": "answers a Python bool, read from ops.isclose's Tensor",
    "mint.item": "answers a Python number, Tensor.item's",
    "mint.conv_tbc": "a time-batch-channel layout around ops.conv1d: two permutes and the op",
    "mint.einsum": "is ops.einsum, itself another spelling of the einsum_operands entry (ops/table_coverage.py)",
    "mint.nn.functional.elu": "the op, or with inplace=True its in-place entry (InplaceElu)",
    "mint.nn.functional.hardtanh": "the op, or with inplace=True its in-place entry (InplaceHardtanh)",
    "mint.nn.functional.relu6": "the op, or with inplace=True its in-place entry (InplaceHardtanh(0, 6))",
    "mint.nn.functional.silu": "the op, or with inplace=True its in-place entry (InplaceSiLU)",
    "mint.nn.functional.threshold": "the op, or with inplace=True its in-place entry (InplaceThreshold)",
    "mint.nn.functional.dropout": "the op, or with inplace=True its in-place entry (inplace_dropout)",
    "mint.nn.functional.dropout2d": "the op, or with inplace=True its in-place entry (inplace_dropout2d)",
    "mint.nn.functional.adaptive_max_pool1d": "the 2-D entry on a unit height, for its indices "
                                              "(ops.adaptive_max_pool1d answers values only)",
    "mint.nn.functional.one_hot": "num_classes=-1 reads the largest index on the host before calling ops.one_hot",
    "mint.nn.functional.normalize": "a composition of entries (norm, clamp, division), as MindSpore builds it",
}

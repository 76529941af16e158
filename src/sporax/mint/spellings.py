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

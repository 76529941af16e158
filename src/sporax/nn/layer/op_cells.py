"""Cells generated from op-table entries (``nn.Mish``, ``nn.Softmax(axis)``, ``mint.nn.GELU``).

A Cell face of an op (a ``CellSpec`` in its entry, ``sporax.ops.op_table``) stores its
``__init__`` arguments as attributes and calls the op's functional face in ``construct``: the
Cell and the functional op run one kernel, so they cannot disagree.

Example:
    >>> from sporax import Tensor, nn, ops
    >>> x = Tensor([-1.0, 0.5])
    >>> bool((nn.Mish()(x).asnumpy() == ops.mish(x).asnumpy()).all())
    True
"""
import inspect

from sporax.nn.cell import Cell
from sporax.ops.op_table import entries


def _spec(name, namespace):
    for entry in entries():
        for spec in entry.cells:
            if spec.name == name and spec.namespace == namespace:
                return entry, spec
    raise LookupError(f"the op table declares no Cell '{name}' in '{namespace}'")


def op_cell(name, namespace="nn", module=None):
    """The Cell class ``name`` that the op table declares for ``namespace`` (``nn``/``mint.nn``)."""
    entry, spec = _spec(name, namespace)
    function, to_op, check = entry.function, spec.to_op, spec.check
    input_names = list(entry.inputs)

    def __init__(self, *args, **kwargs):
        Cell.__init__(self)
        bound = init_signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        settings = dict(list(bound.arguments.items())[1:])
        if check is not None:
            settings = check(**settings) or settings
        for key, value in settings.items():
            setattr(self, key, value)
        self._op_settings = to_op(**settings) if to_op else settings

    def construct(self, *inputs):
        return function(*inputs, **self._op_settings)

    init_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(param, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for param, default in spec.params])
    __init__.__signature__ = init_signature
    construct.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(item, inspect.Parameter.POSITIONAL_OR_KEYWORD) for item in input_names])
    summary = spec.doc or (entry.kernel.__doc__ or name).strip().splitlines()[0]
    args_doc = "".join(f"        {param} (default {default!r}).\n" for param, default in spec.params)
    inputs_doc = "".join(f"        - **{item}** (Tensor).\n" for item in input_names)
    doc = (f"{summary}\n\n    The Cell of ``ops.{entry.name}``.\n\n"
           + (f"    Args:\n{args_doc}\n" if spec.params else "")
           + f"    Inputs:\n{inputs_doc}\n    Outputs:\n        Tensor.\n")
    namespace = {"construct": construct, "__doc__": doc, "__module__": module or __name__,
                 "_op_settings": {}}
    if spec.params:
        # A Cell without settings keeps Cell's own __init__ (and its signature).
        namespace["__init__"] = __init__
    return type(name, (Cell,), namespace)

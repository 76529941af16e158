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
    summary = spec.doc or (entry.kernel.__doc__ or name).strip().splitlines()[0]
    return function_cell(name, entry.function, spec.params, inputs=entry.inputs, to_op=spec.to_op,
                         check=spec.check, doc=f"{summary}\n\n    The Cell of ``ops.{entry.name}``.", module=module)


def function_cell(name, function, params=(), inputs=("input",), to_op=None, check=None, doc=None, module=None):
    """A Cell class ``name`` whose ``__init__`` takes ``params`` (``(name, default)`` pairs, stored as
    attributes) and whose ``construct(*inputs)`` is ``function(*inputs, **settings)``.

    ``check(**params)`` validates the settings at construction (and may return them normalised);
    ``to_op(**params)`` maps them to ``function``'s keyword arguments (default: the same names).
    """

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

    def construct(self, *tensors):
        return function(*tensors, **self._op_settings)

    init_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(param, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for param, default in params])
    __init__.__signature__ = init_signature
    construct.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(item, inspect.Parameter.POSITIONAL_OR_KEYWORD) for item in inputs])
    args_doc = "".join(f"        {param} (default {default!r}).\n" for param, default in params
                       if default is not inspect.Parameter.empty)
    args_doc += "".join(f"        {param}.\n" for param, default in params if default is inspect.Parameter.empty)
    inputs_doc = "".join(f"        - **{item}** (Tensor).\n" for item in inputs)
    summary = doc or (function.__doc__ or name).strip().splitlines()[0]
    full_doc = (f"{summary}\n\n" + (f"    Args:\n{args_doc}\n" if params else "")
                + f"    Inputs:\n{inputs_doc}\n    Outputs:\n        Tensor.\n")
    namespace = {"construct": construct, "__doc__": full_doc, "__module__": module or __name__,
                 "_op_settings": {}}
    if params:
        # A Cell without settings keeps Cell's own __init__ (and its signature).
        namespace["__init__"] = __init__
    return type(name, (Cell,), namespace)

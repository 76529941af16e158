"""The faces of an op-table entry: the functional op, the Primitive class, the Tensor method.

Each face is generated from the entry (``sporax.ops.op_table``), so it has the signature the
entry's kernel declares and calls that kernel: one compiled dispatch per eager call.

The functional face is made by ``exec`` of a one-line ``def`` with the kernel's own parameter
list (as ``dataclasses`` and ``collections.namedtuple`` make their methods): Python binds the
arguments, reports a wrong call in its own words, and ``inspect.signature`` shows MindSpore's.

How a face reads its arguments is ``face_inputs``; how it compiles and calls the kernel, ``face_runners``.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.Mish()(Tensor([0.0])).asnumpy().tolist() == ops.mish(Tensor([0.0])).asnumpy().tolist()
    True
"""
import ast
import functools
import inspect
import numbers

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import alpha_scaled
from sporax.ops.face_adapters import storing
from sporax.ops.face_runners import lowered_runner, random_runner, runner
from sporax.ops.op_table import INT_TUPLE, SCALAR
from sporax.ops.primitive import Primitive


def _parameter_source(signature, defaults):
    """The text of a parameter list that refers to each default through ``defaults``."""
    pieces, previous = [], None
    for parameter in signature.parameters.values():
        kind = parameter.kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError(f"op table: **kwargs are not table signatures ({signature})")
        if previous is inspect.Parameter.POSITIONAL_ONLY and kind is not previous:
            pieces.append("/")
        if kind is inspect.Parameter.KEYWORD_ONLY and previous not in (kind, inspect.Parameter.VAR_POSITIONAL):
            pieces.append("*")
        # ``rand(*size)``: the body passes ``size`` on as one tuple (only random entries take it)
        text = ("*" if kind is inspect.Parameter.VAR_POSITIONAL else "") + parameter.name
        if parameter.default is not inspect.Parameter.empty:
            defaults[f"_default_{parameter.name}"] = parameter.default
            text += f"=_default_{parameter.name}"
        pieces.append(text)
        previous = kind
    if previous is inspect.Parameter.POSITIONAL_ONLY:
        pieces.append("/")
    return ", ".join(pieces)


def make_function(name, signature, body_call, namespace, doc, module, defaults_call=None):
    """``def name(<signature>): return body_call(<arguments>)``; with ``defaults_call``, a call
    whose settings are all their defaults (by identity: one test each) is ``defaults_call(input)``."""
    parameters = _parameter_source(signature, namespace)
    arguments = ", ".join(signature.parameters)
    source = f"def {name}({parameters}):\n"
    if defaults_call is not None:
        first, *settings = signature.parameters
        untouched = " and ".join(f"{setting} is _default_{setting}" for setting in settings)
        source += f"    if {untouched}:\n        return {defaults_call}({first})\n"
    source += f"    return {body_call}({arguments})\n"
    exec(compile(source, f"<op table: {module}.{name}>", "exec"), namespace)
    function = namespace[name]
    function.__doc__ = doc
    function.__module__ = module
    return function


def renamed(name, target, parameters, doc, module):
    """``def name(*parameters): return target(*parameters)``: a MindSpore name of its own (``ops.floordiv``,
    ``ops.tensor_add``) for an op sporax has under another name, with MindSpore's parameter names."""
    signature = inspect.Signature([inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for parameter in parameters])
    return make_function(name, signature, "_target", {"_target": target}, doc, module)


def spelled(entry, spelling):
    """The ``mint`` face ``spelling`` (an ``op_table.Spelling``) of ``entry``: ``def NAME(<its parameters>)``
    calling the entry's functional face with each entry argument given by the spelling.

    Example:
        >>> from sporax import Tensor
        >>> from sporax.ops.op_table import TABLE, spelling
        >>> amax = spelled(TABLE["amax"], spelling("amax", "input, dim=(), keepdim=False",
        ...                                         axis="None if dim == () else dim", keepdims="keepdim"))
        >>> amax(Tensor([[1.0, 3.0]]), dim=1).asnumpy().tolist()
        [3.0]
    """
    namespace = {"_target": entry.method_face, "mstype": mstype, "alpha_scaled": alpha_scaled}
    exec(compile(f"def {spelling.name}({spelling.parameters}): pass", "<spelling>", "exec"), namespace)
    own = inspect.signature(namespace.pop(spelling.name)).parameters
    given = dict(spelling.arguments)
    unknown = sorted(set(given) - set(entry.signature.parameters))
    if unknown:
        raise ValueError(f"op table: spelling mint.{spelling.name} sets {unknown}, which ops.{entry.name} "
                         f"does not take (its parameters: {list(entry.signature.parameters)})")
    positional, keywords = [], []
    for name, parameter in entry.signature.parameters.items():
        expression = given.get(name, name if name in own else None)
        if expression is None:
            continue
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            positional.append(f"*{expression}")
        elif parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            positional.append(expression)
        else:
            keywords.append(f"{name}={expression}")
    call = ", ".join(positional + keywords)
    used = {node.id for node in ast.walk(ast.parse(f"_target({call})")) if isinstance(node, ast.Name)}
    refused = dict(spelling.unsupported)
    forgotten = [name for name in own if name not in spelling.unused and name not in refused and name not in used]
    if forgotten:
        raise ValueError(f"op table: spelling mint.{spelling.name} never passes its parameter(s) {forgotten} on "
                         f"to ops.{entry.name}: map them in the spelling's arguments, or list them as unused")
    refusals = ""
    for name, reason in spelling.unsupported:  # refused by name, with the reason (their default is None)
        message = (f"mindspore.{spelling.namespaces[0]}.{spelling.name}: a {name!r} other than None is not "
                   f"supported; {reason}.")
        refusals += f"    if {name} is not None:\n        raise NotImplementedError({message!r})\n"
    for position, (name, reader) in enumerate(spelling.readers):  # a dtype check of the face's own
        namespace[f"_read{position}"] = reader
        refusals += f"    _read{position}({spelling.name!r}, {name!r}, {name})\n"
    source = f"def {spelling.name}({spelling.parameters}):\n{refusals}    return _target({call})\n"
    exec(compile(source, f"<op table: mint.{spelling.name}>", "exec"), namespace)
    function = namespace[spelling.name]
    summary = (entry.kernel.__doc__ or f"``ops.{entry.name}``.").strip().splitlines()[0]
    function.__doc__ = (f"{summary}\n\nPyTorch's spelling of ``ops.{entry.name}``: ``{spelling.name}"
                        f"({spelling.parameters})``; see ``ops.{entry.name}`` for an example.")
    function.__module__ = f"sporax.{spelling.namespaces[0]}"
    function.entry = entry
    return function


def checking_kernel(kernel, check):
    """``kernel`` that first makes ``check(*arrays)`` (an entry's ``primitive_check``): traced once per dtypes."""

    @functools.wraps(kernel)
    def checked(*arrays, **settings):
        check(*arrays)
        return kernel(*arrays, **settings)

    return checked


def functional(entry):
    """The functional face of ``entry``: ``ops.NAME(*tensors, **settings)``."""
    if entry.random is not None:
        run = random_runner(entry)
        with_key = run.with_key
        if entry.writes is not None:  # an in-place fill (``bernoulli_``) stores its draw into its input
            run, with_key = storing(entry, run), storing(entry, with_key, leading=1)
        function = make_function(entry.name, entry.signature, "_run", {"_run": run}, entry.kernel.__doc__,
                                 entry.module)
        function.with_key = with_key
        return function
    run = runner(entry) if entry.writes is None else storing(entry, runner(entry))
    at_defaults = getattr(run, "at_defaults", None)
    if entry.lowering:
        run, at_defaults = lowered_runner(entry, run), None
    return make_function(entry.name, entry.signature, "_run", {"_run": run, "_run_at_defaults": at_defaults},
                          entry.kernel.__doc__, entry.module, at_defaults and "_run_at_defaults")


def _stored(primitive_name, attribute, form, value):
    """``value`` as a generated Primitive stores ``attribute`` of that ``form`` (``op_table.INT_TUPLE``,
    ``FLOAT_NUMBER``): MindSpore 2.10's generated Primitives read ``Squeeze(1).axis`` as ``(1,)``."""
    if value is None:
        return value
    if form == INT_TUPLE:
        if isinstance(value, numbers.Integral):
            return (value,)
        if isinstance(value, (list, tuple)):
            return tuple(value)
        if isinstance(value, Tensor) and value.ndim == 1:
            return tuple(value.asnumpy().tolist())
        accepted = "list of int, int, tuple of int"
    else:
        if isinstance(value, numbers.Real):
            return float(value)
        accepted = "bool, int, float"
    raise TypeError(f"For '{primitive_name}', the type of '{attribute}' should be one of '[{accepted}]', but got "
                    f"{type(value)}.")


def _offer_io_names(primitive, entry):
    """A generated Primitive without MindSpore's recorded io names (``primitive_io_names``) offers its op-table
    inputs as ``input_names`` (outside ``attrs``: MindSpore 2.10's generated Primitives keep none there)."""
    if "input_names" not in primitive.attrs:
        primitive.input_names, primitive.output_names = list(entry.inputs), ["output"]


def primitive_class(entry, module):
    """MindSpore's Primitive class of ``entry``: ``__init__`` takes the attributes named by
    ``entry.primitive_attrs``, ``__call__`` takes the op's other arguments in order."""
    name, function = entry.primitive, entry.function
    attributes = entry.attributes()
    set_by_init = {parameter for _, parameter, _ in attributes}
    call_names = [p for p in entry.signature.parameters if p not in set_by_init]
    pairs = [(attribute, parameter) for attribute, parameter, _ in attributes]
    forms = [(attribute, (entry.attribute_forms or {}).get(attribute)) for attribute, _ in pairs]

    def setup(self, *values):
        Primitive.__init__(self, name)
        for (attribute, form), value in zip(forms, values):
            if form is not None:
                value = _stored(name, attribute, form, value)
            self.add_prim_attr(attribute, value)  # the attribute and its ``attrs`` entry
        _offer_io_names(self, entry)

    def init_without_attributes(self):
        Primitive.__init__(self, name)
        _offer_io_names(self, entry)

    init_without_attributes.__qualname__ = f"{name}.__init__"  # errors read ``Exp.__init__() takes ...``

    init_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(attribute, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for attribute, _, default in attributes])
    # ``ops.Exp()`` is often built inside ``construct``, on every call: no wrapper to go through.
    init = (make_function("__init__", init_signature, "_setup", {"_setup": setup}, None, module) if pairs
            else init_without_attributes)
    required = len([p for p in call_names
                    if entry.signature.parameters[p].default is inspect.Parameter.empty])
    # Call inputs the op takes by keyword only (``Round()(x, decimals)``: ``ops.round(x, *, decimals)``).
    positional = len([p for p in call_names
                      if entry.signature.parameters[p].kind is not inspect.Parameter.KEYWORD_ONLY])

    def __call__(self, *args):
        if not required <= len(args) <= len(call_names):
            count = len(call_names) if required == len(call_names) else f"{required} to {len(call_names)}"
            raise TypeError(f"{name}() takes {count} input(s) ({', '.join(call_names)}), but got {len(args)}.")
        settings = {parameter: getattr(self, attribute) for attribute, parameter in pairs}
        settings.update(zip(call_names[positional:], args[positional:]))
        return function(*args[:positional], **settings)

    def call_inputs(self, *args):
        """``Exp()(x)``: the op's own call, when the Primitive has no attributes (the eager hot path)."""
        if len(args) == len(call_names):
            return function(*args)
        return __call__(self, *args)  # fewer inputs: their defaults, or the error naming them

    def call_as_given(self, *args):
        """``TupleGetItem()(data, index)``: an op of ``*args`` takes its inputs as they come."""
        return function(*args)

    variadic = any(parameter.kind is inspect.Parameter.VAR_POSITIONAL
                   for parameter in entry.signature.parameters.values())
    plain = not pairs and positional == len(call_names)
    call = call_as_given if variadic else call_inputs if plain else __call__
    value_kind = "Python value" if entry.dtypes == SCALAR else "Tensor"
    summary = (entry.kernel.__doc__ or name).strip().splitlines()[0]
    inputs = "\n".join(f"        - **{item}** ({value_kind})." for item in call_names)
    attrs_doc = "".join(f"        {attribute} (default {default!r}).\n" for attribute, _, default in attributes)
    doc = (f"{summary}\n\n    Same as ``ops.{entry.name}``.\n\n"
           + (f"    Args:\n{attrs_doc}\n" if attributes else "")
           + f"    Inputs:\n{inputs}\n\n    Outputs:\n        {value_kind}.\n")
    if not variadic:
        # MindIR loading reads the names of the call's inputs (a ``dtype`` input arrives as a TypeId to convert);
        # ``*settings`` keeps it counting a node's inputs as those not taken by ``__init__``.
        call.__signature__ = inspect.Signature(
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
            + [inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for parameter in call_names[:positional]]
            + [inspect.Parameter("settings", inspect.Parameter.VAR_POSITIONAL)])
    return type(name, (Primitive,), {"__init__": init, "__call__": call,
                                     "__doc__": doc, "__module__": module})


def primitive_classes(entries, module):
    """``{Primitive name: class}`` for the entries that name one."""
    return {entry.primitive: primitive_class(entry, module) for entry in entries if entry.primitive}


def install_tensor_methods(entries):
    """Bind each entry's functional face as its Tensor method(s) (``x.mish()`` is ``ops.mish(x)``;
    ``x.acos()`` and ``x.arccos()`` are ``ops.acos(x)``)."""
    for entry in entries:
        for method in entry.methods:
            setattr(Tensor, method, entry.method_face)

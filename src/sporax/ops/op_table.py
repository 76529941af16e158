"""THE op table: every op declared once, its faces generated from the entry.

An entry is declared where its kernel is written, with the ``op`` decorator on the kernel: a
function of jax arrays whose signature *is* the public signature (Tensor inputs first, then
hyper-parameters with MindSpore's defaults). The decorator records an ``Op`` and returns the
functional face (Tensors in, Tensors out); the other faces are made from the same entry:

- the functional op (``ops.mish``) -- ``faces.functional``;
- MindSpore's Primitive class (``ops.Mish()``, ``ops.Softmax(axis)``) -- ``faces.primitive_class``;
- the Tensor method (``x.mish()``) -- ``faces.install_tensor_methods``;
- the ``mint`` function (``mint.nn.functional.mish``) -- the functional face itself, or, where ``mint``
  spells the op PyTorch's way (``mint.amax(input, dim, keepdim)`` for ``ops.amax(input, axis, keep_dims)``),
  a ``Spelling`` row of the entry -- ``faces.spelled``, exported by ``sporax.mint.spellings``;
- Cells (``nn.Mish``, ``mint.nn.Mish``) -- ``sporax.nn.layer.op_cells`` (Cells live above ops).

So two faces of one op cannot compute different values: they all call the entry's kernel. A
MindSpore Primitive name (as a MindIR file stores it) resolves through ``primitive_named`` to the
Primitive class, and so to the same kernel.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax import Tensor
    >>> from sporax.ops.op_table import TABLE
    >>> entry = TABLE["hardshrink"]
    >>> entry.primitive, entry.method, [cell.name for cell in entry.cells]
    ('HShrink', 'hardshrink', ['Hardshrink'])
    >>> entry.function(Tensor([0.2, -1.0])).asnumpy().tolist()
    [0.0, -1.0]
"""
import dataclasses
import inspect
from typing import Callable

TABLE = {}        # functional name -> Op
PRIMITIVES = {}   # MindSpore Primitive name -> Op

# Which input dtypes an op takes: the rule each Tensor input is checked against.
FLOAT = "float"      # float16/32/64, bfloat16; anything else raises TypeError
NUMBER = "number"    # ints and floats; Bool raises TypeError
ANY = "any"          # every dtype, Bool included
TO_FLOAT = "to_float"  # floats keep their dtype; Bool and integers compute in Float32 (exp, sqrt ...)
# Two operands, Tensors or Python numbers, promoted to MindSpore's common dtype inside one kernel
# (``int32 + 2.5`` -> Float32); BINARY_TO_FLOAT also makes Int/Bool results Float32 (true division).
BINARY = "binary"
BINARY_TO_FLOAT = "binary_to_float"
# Any number of operands (``lerp``, ``addcmul``, ``clamp``'s bounds), Tensors or Python numbers (or None where
# the input defaults to None), promoted together inside one kernel: Tensors to their common dtype, a Python
# number lifting only the kind; PROMOTED_TO_FLOAT also makes an Int/Bool common dtype Float32.
PROMOTED = "promoted"
PROMOTED_TO_FLOAT = "promoted_to_float"
# No Tensor input (``zeros(size, dtype)``): the output dtype is the ``dtype`` setting, Float32 without one.
CREATION = "creation"
# Float or complex (determinants, decompositions): integers and Bool raise TypeError.
INEXACT = "inexact"
# Fourier transforms: number Tensors (Bool raises TypeError); integers, Float16 and BFloat16 transform in
# Float32 (Complex64 results, Float32 for the real-output transforms), as MindSpore 2.10's kernels do.
SPECTRAL = "spectral"
# Python values, not Tensors (``scalar_add``, ``tuple_getitem``, ``bool_and``): MindSpore's graph primitives on
# numbers, tuples, lists, dicts and strings. The faces hand the values to the kernel as they are and return what it
# returns, compiling nothing (inside a compiled function they are constants of the trace); the kernel makes
# MindSpore's checks, and ``samples``/``reference`` are Python values.
SCALAR = "scalar"
DTYPE_RULES = (FLOAT, NUMBER, ANY, TO_FLOAT, BINARY, BINARY_TO_FLOAT, PROMOTED, PROMOTED_TO_FLOAT, CREATION, INEXACT,
               SPECTRAL, SCALAR)
# Per-input rules only (``input_dtypes``): integer indices, and Bool masks.
INDEX = "index"
MASK = "mask"
# Per-input rules of a sparse input (``coo_abs``'s ``x``): a COOTensor / CSRTensor, its values checked by the
# entry's ``dtypes`` rule; the kernel gets its component arrays (``sporax.ops.sparse_operands``).
COO = "coo"
CSR = "csr"


@dataclasses.dataclass(frozen=True)
class CellSpec:
    """A Cell face of an entry: ``nn.NAME(**params)`` calls the op on its input.

    ``params`` are the Cell's ``__init__`` arguments with defaults, in order (they become
    attributes of the Cell); ``to_op`` maps them to the op's keyword arguments (default: the same
    names). ``check(**params)`` validates them at construction (raising the Cell's own error) and
    may return them normalised. ``namespace`` is where the class is exported: ``"nn"`` or ``"mint.nn"``.
    """
    name: str
    params: tuple = ()
    to_op: Callable = None
    check: Callable = None
    namespace: str = "nn"
    doc: str = None


@dataclasses.dataclass(frozen=True)
class Spelling:
    """A ``mint`` face of an entry with a parameter list of its own (PyTorch's ``dim``/``keepdim``).

    ``parameters`` is the face's parameter list as Python writes it (``"input, dim=None, keepdim=False"``);
    ``arguments`` are ``(entry parameter, expression)`` pairs: the expression, in the face's parameters,
    that the entry's parameter gets (``("axis", "dim")``, ``("axis", "None if dim == () else dim")``); a face
    parameter named as an entry parameter passes through unless ``arguments`` names it. ``namespaces`` are the
    ``mint`` modules exporting the one function (``"mint"``, ``"mint.nn.functional"``, ``"mint.special"``);
    ``unused`` are face parameters MindSpore accepts and ignores (``sort``'s ``stable``: sporax's sort is
    always stable), so a forgotten parameter is an error, not a silently dropped argument. ``unsupported`` are
    ``(face parameter, reason)`` pairs of parameters sporax refuses unless left at their default (``rand``'s
    ``generator``): the face raises NotImplementedError naming the parameter and the reason. ``readers`` are
    ``(face parameter, reader)`` pairs whose reader (``sporax.ops.face_inputs``) the face runs on the argument
    first, for a dtype check of its own (``mint.nn.functional.leaky_relu``'s LeakyReLUExt refuses integers that
    ``ops.leaky_relu`` takes).
    """
    name: str
    parameters: str
    arguments: tuple = ()
    namespaces: tuple = ("mint",)
    unused: tuple = ()
    unsupported: tuple = ()
    readers: tuple = ()


def spelling(name, parameters, *, namespaces=("mint",), unused=(), unsupported=(), readers=(), **arguments):
    """A ``Spelling`` row: ``spelling("amax", "input, dim=(), keepdim=False", axis="dim", keep_dims="keepdim")``;
    ``unsupported`` maps face parameters sporax refuses (unless at their default) to the reason, ``readers`` face
    parameters to the reader that checks them first."""
    namespaces = (namespaces,) if isinstance(namespaces, str) else tuple(namespaces)
    unused = (unused,) if isinstance(unused, str) else tuple(unused)
    unsupported = tuple(dict(unsupported).items())
    return Spelling(name, parameters, tuple(arguments.items()), namespaces, unused, unsupported,
                    tuple(dict(readers).items()))


# How a generated Primitive stores an attribute given as another type (an entry's ``attribute_forms``), as
# MindSpore 2.10's generated Primitives convert it in ``__init__`` (None is kept as it is):
INT_TUPLE = "int_tuple"        # an int, a list or a 1-D Tensor of ints is stored as a tuple: Squeeze(1).axis == (1,)
FLOAT_NUMBER = "float_number"  # a bool or an int is stored as a float: HShrink(1).lambd == 1.0

@dataclasses.dataclass(frozen=True)
class Op:
    """One op: its kernel and the names of its faces.

    Attributes:
        name: the functional name (``mish``); ``aliases`` are further functional names.
        kernel: the function of arrays (its signature is the op's public signature).
        inputs: the names of the Tensor arguments (the rest are static hyper-parameters).
        dtypes: the input dtype rule (``FLOAT``, ``NUMBER`` or ``ANY``).
        primitive: MindSpore's Primitive name, or None; ``primitive_attrs`` the hyper-parameters
            that are its ``__init__`` attributes (the rest of its arguments are call inputs);
            ``attribute_forms`` ``{attribute: INT_TUPLE or FLOAT_NUMBER}``, the type an attribute is stored as.
        method: the Tensor method name, or None; ``method_aliases`` are further method names of it.
        mint: the ``mint`` name(s) that are this functional face.
        spellings: ``Spelling`` rows: ``mint`` faces with PyTorch's parameter names (``op(mint=...)`` takes
            names and ``spelling(...)`` rows alike).
        cells: ``CellSpec`` of each Cell face.
        position_wise: each output element depends on its own input element alone (NHWC input
            may stay NHWC: the CPU channels-last lowering).
        samples: ``samples(dtype)`` -> list of ``Sample`` for the op test table.
        reference: the test oracle, a NumPy function of the Tensor inputs (positionally, in ``inputs``
            order) and the settings (by keyword).
        grad_check: whether finite differences apply (smooth in its samples).
        sequences: the inputs that are a tuple or list of Tensors (``concat``'s ``tensors``): the
            kernel gets a tuple of arrays.
        inline: a compiled caller traces the kernel's operations into its own program (layout ops:
            ``reshape`` in a train step stays a plain reshape, not a call of a nested function).
        zero_dim_follows: for a ``BINARY``/``BINARY_TO_FLOAT`` entry: a 0-d Tensor operand beside a Tensor of
            higher rank and of the same kind (Bool, integer, floating, complex) takes that Tensor's dtype instead of
            widening it, as a Python number would (MindSpore 2.10's Mul and Div: ``float16 (2,) * float32 0-d`` is
            Float16, ``int32 (2,) * int64 0-d`` Int32); a kind change still promotes (``int32 (2,) * float64 0-d``
            is Float64), and so do two 0-d Tensors or two of higher rank.
        float_result: for a ``BINARY_TO_FLOAT`` entry with settings, ``float_result(**settings)``
            says whether Int/Bool results become Float32 under those settings (``div``'s rounding
            modes keep integers); None: always.
        input_dtypes: ``{input name: rule}`` for the Tensor inputs whose rule is not ``dtypes`` (a loss's
            integer class ``target`` beside its float ``input``), also the rules ``INDEX`` (integer indices: an
            Int Tensor, or Python ints and lists of ints read as Int64) and ``MASK`` (a Bool Tensor) that
            ``op(indices=..., masks=...)`` give, and ``COO``/``CSR`` (a sparse tensor: the kernel gets its
            ``COOArrays``/``CSRArrays`` and may return one, which the faces turn back into the sparse tensor).
        value_check: ``value_check(*arrays, **settings)``, called before the compiled kernel with the
            inputs in ``inputs`` order: checks of values (class indices in range) that a compiled kernel
            cannot make; the arrays are concrete in PyNative, tracers inside ``jit`` (skip those).
        lowering: the op family whose backend forms the kernel may take (``"conv"``, ``"pool"``:
            ``lowering.switch.fast_lowering``); each form is compiled once and chosen per call.
        scalars: the Tensor inputs that may also be Python numbers (``masked_fill``'s ``value``): the
            kernel gets the number as a weakly typed 0-d array.
        writes: the input the op stores its result into, in place (``scatter_add``'s Parameter ``input_x``),
            through the state layer's one writer (``sporax.state.assign.write``); the faces return that input.
        snapshot: for a ``writes`` entry, the faces return a new Tensor holding the stored value instead of the
            input, as MindSpore 2.10's Parameter-update primitives do (Assign, AssignAdd, the Scatter family,
            InplaceIndexAdd: ``ops.assign(w, v) is w`` is False; a later write into ``w`` leaves it as it was).
        random: for a random op, ``draw_key(seed)`` -> the ``jax.random`` key of one call, given the value of
            the op's ``seed`` argument (None when it has none); the kernel takes that key as its keyword-only
            ``key`` parameter, which is not part of the public signature. Its ``reference`` returns a
            ``Distribution`` (the op test table checks draws against it, and that every face repeats the same
            values under one seed). ``entry.sample(key, ...)`` runs the op with a given key (Primitives that own
            a stream).
        updates: the inputs the op also updates in place beside its result (``batch_norm``'s running statistics):
            the kernel returns ``(result, new value of each)``; a new value None leaves that input as it is, and
            the faces store the others through the state layer's one writer and return ``result``.
        nullable: Tensor inputs that may be None though the signature gives them no default (``batch_norm``'s
            ``weight``): the kernel gets None. (A rule of ``input_dtypes`` may also be a reader of its own,
            ``read(op_name, arg_name, value)`` -> array: ``ctc_loss``'s lengths, Int Tensors or tuples of ints.)
        draws: for a random op, ``draws(*arguments)`` (in signature order) says whether this call draws a key;
            when it does not (``dropout`` outside training), the random state stays put and the kernel gets
            ``key=None``. None: every call draws.
        eager: the faces call the kernel as it is, not compiled per call: for ops whose settings change from
            call to call (sizes and bounds read on the host: ``arange``, ``full``), whose kernels read input
            values on the host (``nonzero``, ``unique``: their output shape depends on the values; under a trace
            they raise ``UntraceableError`` naming the op, and a compiled caller runs eagerly, as MindSpore
            runs its dynamic-shape ops) or that answer with Python values (``shape``, ``rank``). Array results
            become Tensors; other results (ints, tuples of ints, dtypes) are returned as they are.
        one_or_many: the inputs of ``sequences`` that may also be one Tensor (``clip_by_norm``'s ``x``: a Tensor, or
            a tuple or list of Tensors clipped by their joint norm; ``incre_flash_attention``'s ``key``/``value``):
            the kernel gets one Tensor as a one-tuple and, where it returns a one-element tuple, the faces return its
            Tensor alone; a tuple or list gives a tuple. A name or a tuple of names.
        reference_dtype: the ``reference`` also takes ``dtype=``, the NumPy name of the sample's dtype
            (``"float16"``): for ops whose answer depends on the input's dtype alone (``eps``, ``dtype``), which
            the float64 inputs of the reference do not show. A dtype answer (``ops.dtype``) compares with the
            reference's NumPy dtype name as the dtype it stands for.
        writer: for a ``writes`` entry, ``writer(input, result, op_name)`` that stores the result into the input
            instead of the state layer's ``write``: ``assign`` stores through ``sporax.state.assign.assign``, whose
            gradient is MindSpore's Assign's (later reads differentiate with respect to the Parameter itself).
        view: the result (each result, for a tuple) is a view of the first input, as MindSpore's view ops in
            PyNative mode: eager writes into either show in the other (``sporax.state.views``). The kernel must
            only pick elements (reshape, transpose, slicing), never compute new ones.
        primitive_check: ``primitive_check(*arrays)``, a dtype check (raising MindSpore's TypeError) that only the
            faces of MindSpore's Primitive make -- the functional op and the Primitive class -- where MindSpore 2.10
            sends the Tensor method, the ``mint`` function and the operator to an extended Primitive that takes
            more dtypes (``ops.add`` of two Bool Tensors is Add's TypeError; ``x.add(y)``, ``mint.add`` and
            ``x + y`` run AddExt: Bool). Those faces call ``extended``, the entry's face without the check
            (None when the entry has no ``primitive_check``); ``method_face`` is whichever they call.
        constant_settings: settings MindSpore's compiler needs as constants because they decide how many Tensors
            the op returns (``chunk``'s ``chunks`` and ``axis``): a value known only when the compiled function
            runs (``mutable``, or computed there) raises RuntimeError naming the op and the setting, as
            MindSpore 2.10, instead of the eager fallback other settings get.
    """
    name: str
    kernel: Callable
    inputs: tuple
    dtypes: str
    signature: inspect.Signature
    function: Callable = None
    aliases: tuple = ()
    primitive: str = None
    primitive_attrs: tuple = ()
    attribute_forms: dict = None
    method: str = None
    method_aliases: tuple = ()
    mint: tuple = ()
    spellings: tuple = ()
    cells: tuple = ()
    position_wise: bool = False
    samples: Callable = None
    reference: Callable = None
    grad_check: bool = True
    module: str = None
    sequences: tuple = ()
    inline: bool = False
    float_result: Callable = None
    input_dtypes: dict = None
    value_check: Callable = None
    lowering: str = None
    scalars: tuple = ()
    writes: str = None
    random: Callable = None
    draws: Callable = None
    updates: tuple = ()
    constant_settings: tuple = ()
    nullable: tuple = ()
    eager: bool = False
    one_or_many: tuple = None
    reference_dtype: bool = False
    writer: Callable = None
    view: bool = False
    snapshot: bool = False
    primitive_check: Callable = None
    extended: Callable = None
    zero_dim_follows: bool = False

    @property
    def method_face(self):
        """The face the Tensor method, ``mint`` spellings and operators call (``extended`` or ``function``)."""
        return self.extended or self.function

    @property
    def methods(self):
        """Every Tensor method name of the op (``("acos", "arccos")``)."""
        return ((self.method,) if self.method else ()) + self.method_aliases

    @property
    def params(self):
        """The static hyper-parameters: ``inspect.Parameter``s after the Tensor inputs."""
        return [p for name, p in self.signature.parameters.items() if name not in self.inputs]

    def attributes(self):
        """``[(attribute, parameter, default)]`` of the Primitive's ``__init__``: ``primitive_attrs``
        rows are a parameter name, ``(attribute, parameter)`` when MindSpore names the attribute
        otherwise (``ReduceSum(keep_dims)`` sets ``keepdims``), or ``(attribute, parameter, default)``."""
        rows = []
        for row in self.primitive_attrs:
            attribute, parameter, *default = (row, row) if isinstance(row, str) else row
            default = default[0] if default else self.signature.parameters[parameter].default
            rows.append((attribute, parameter, default))
        return rows

    def call_primitive(self, primitive, *inputs):
        """Run this op for a Primitive instance: its recorded attributes are the op's settings."""
        settings = {}
        for attribute, parameter, default in self.attributes():
            value = primitive.attrs.get(attribute, getattr(primitive, attribute, default))
            if value is inspect.Parameter.empty:
                raise TypeError(f"Primitive {self.primitive} needs the attribute '{attribute}' "
                                f"(add it with add_prim_attr('{attribute}', value)).")
            settings[parameter] = value
        return self.function(*inputs, **settings)

    def sample(self, key, *args, **kwargs):
        """A random op's draw with ``key`` instead of a key from the global random state."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return self.function.with_key(key, *bound.arguments.values())


@dataclasses.dataclass(frozen=True)
class Distribution:
    """What a random op's draws must look like (the ``reference`` of a random entry): the output ``shape``
    and NumPy ``dtype`` name, the mean and standard deviation of each element (broadcastable to ``shape``;
    None: not checked), the closed bounds ``low``/``high`` the values lie in, and for a permutation the
    ``values`` it permutes (``sorted`` along the first axis, the draws must equal them)."""
    shape: tuple
    dtype: str
    mean: object = None
    std: object = None
    low: object = None
    high: object = None
    values: object = None


@dataclasses.dataclass
class Sample:
    """Sample inputs of an op: Tensor inputs as NumPy arrays, hyper-parameters as keywords."""
    arrays: tuple
    kwargs: dict = dataclasses.field(default_factory=dict)


# Computed in double precision whatever the input (``float_power``): Bool, integer and float inputs give Float64,
# complex ones Complex128; a Python number stays a number.
TO_FLOAT64 = "to_float64"
# Complex64/Complex128 only (``angle``); any other dtype raises TypeError naming the op.
COMPLEX = "complex"
DTYPE_RULES += (TO_FLOAT64, COMPLEX)


def op(*, inputs=("input",), dtypes=FLOAT, primitive=None, primitive_attrs=(), attribute_forms=None, method=None,
       mint=(), cells=(), aliases=(), position_wise=False, samples=None, reference=None, grad_check=True, sequences=(),
       inline=False, float_result=None,
       input_dtypes=None, value_check=None, lowering=None,
       indices=(), masks=(), scalars=(), writes=None, random=None, draws=None,
       updates=(), nullable=(), eager=False, one_or_many=None, reference_dtype=False,
       writer=None, view=False, snapshot=False, constant_settings=(), primitive_check=None, zero_dim_follows=False):
    """Declare an op from its kernel; returns the functional face. See the module docstring.

    ``method`` and ``mint`` are a name or a tuple of names (``method=("acos", "arccos")``), ``mint`` also
    ``spelling(...)`` rows; ``sequences`` names the inputs that take a tuple or list of Tensors (they are also
    ``inputs``).
    """
    if dtypes not in DTYPE_RULES:
        raise ValueError(f"op table: dtypes must be one of {DTYPE_RULES}, got {dtypes!r}")
    if zero_dim_follows and dtypes not in (BINARY, BINARY_TO_FLOAT):
        raise ValueError(f"op table: zero_dim_follows is a rule of two-operand (BINARY) entries, got {dtypes!r}")
    inputs = (inputs,) if isinstance(inputs, str) else tuple(inputs)
    mint = (mint,) if isinstance(mint, (str, Spelling)) else tuple(mint)
    spelling_rows = tuple(name for name in mint if isinstance(name, Spelling))
    mint = tuple(name for name in mint if not isinstance(name, Spelling))
    indices = (indices,) if isinstance(indices, str) else tuple(indices)
    masks = (masks,) if isinstance(masks, str) else tuple(masks)
    scalars = (scalars,) if isinstance(scalars, str) else tuple(scalars)
    input_dtypes = {**{name: INDEX for name in indices}, **{name: MASK for name in masks}, **(input_dtypes or {})}
    method, *method_aliases = (method,) if isinstance(method, str) or method is None else method
    sequences = (sequences,) if isinstance(sequences, str) else tuple(sequences)
    one_or_many = (one_or_many,) if isinstance(one_or_many, str) else one_or_many
    # one Tensor or a sequence of them: read as a sequence
    sequences += tuple(name for name in one_or_many or () if name not in sequences)

    def declare(kernel):
        # Faces are made here, not imported at module top: faces imports the dispatch helpers,
        # which import Tensor; the table itself stays importable by anything in ops.
        from sporax.ops import faces

        signature = inspect.signature(kernel)
        if random is not None:  # the key is the face's to draw: not a public parameter
            if "key" not in signature.parameters:
                raise ValueError(f"op table: random op {kernel.__name__} must take a keyword-only 'key'")
            signature = signature.replace(parameters=[p for p in signature.parameters.values() if p.name != "key"])
        named = inputs + tuple(input_dtypes) + scalars + ((writes,) if writes else ())
        missing = [name for name in named if name not in signature.parameters]
        if missing:
            raise ValueError(f"op table: {kernel.__name__} has no parameter(s) {missing} named in inputs")
        entry = Op(name=kernel.__name__, kernel=kernel, inputs=inputs, dtypes=dtypes, signature=signature,
                   aliases=tuple(aliases), primitive=primitive, primitive_attrs=tuple(primitive_attrs),
                   attribute_forms=attribute_forms,
                   method=method, method_aliases=tuple(method_aliases), mint=mint, spellings=spelling_rows,
                   cells=tuple(cells),
                   position_wise=position_wise,
                   samples=samples, reference=reference, grad_check=grad_check, module=kernel.__module__,
                   sequences=(sequences,) if isinstance(sequences, str) else tuple(sequences), inline=inline,
                   float_result=float_result,
                   input_dtypes=input_dtypes, value_check=value_check, lowering=lowering,
                   scalars=scalars, writes=writes, random=random, draws=draws,
                   updates=tuple(updates), nullable=tuple(nullable), eager=eager, one_or_many=one_or_many,
                   reference_dtype=reference_dtype, writer=writer, view=view,
                   snapshot=snapshot, constant_settings=tuple(constant_settings), primitive_check=primitive_check,
                   zero_dim_follows=zero_dim_follows)
        function = faces.functional(entry)
        extended = None
        if primitive_check is not None:  # the functional face checks; the method/mint faces are the plain kernel's
            extended, function = function, faces.functional(dataclasses.replace(
                entry, kernel=faces.checking_kernel(entry.kernel, primitive_check)))
        entry = dataclasses.replace(entry, function=function, extended=extended)
        function.entry = entry
        if extended is not None:
            extended.entry = entry
        register(entry)
        return function

    return declare


def function_op(name, compute, doc, *, module, inputs=("input",), **options):
    """Declare the entry ``name`` whose kernel is ``compute`` (one function of arrays, ``jnp.exp``)
    of the Tensor ``inputs``; ``options`` are ``op``'s. Returns the functional face.

    For the many ops that are one jnp call: a row instead of a hand-written kernel each.
    """
    inputs = (inputs,) if isinstance(inputs, str) else tuple(inputs)

    def kernel(*arrays):
        return compute(*arrays)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    kernel.__module__ = module
    kernel.__signature__ = inspect.Signature(
        [inspect.Parameter(input, inspect.Parameter.POSITIONAL_OR_KEYWORD) for input in inputs])
    return op(inputs=inputs, **options)(kernel)


def register(entry):
    """Add ``entry`` to the table; a second entry of one name (functional or Primitive) is a bug."""
    for name in (entry.name,) + entry.aliases:
        if name in TABLE:
            raise ValueError(f"op table: '{name}' is declared twice ({TABLE[name].module} and {entry.module})")
        TABLE[name] = entry
    if entry.primitive is not None:
        if entry.primitive in PRIMITIVES:
            raise ValueError(f"op table: Primitive '{entry.primitive}' is declared twice")
        PRIMITIVES[entry.primitive] = entry


def entries():
    """Every entry once (aliases share their entry), in declaration order."""
    seen, result = set(), []
    for entry in TABLE.values():
        if entry.name not in seen:
            seen.add(entry.name)
            result.append(entry)
    return result


def spellings(namespace):
    """``[(entry, Spelling)]`` of every ``mint`` spelling exported by ``namespace`` (``"mint.nn.functional"``)."""
    return [(entry, row) for entry in entries() for row in entry.spellings if namespace in row.namespaces]


def primitive_named(name):
    """The Primitive class MindSpore calls ``name`` (``"ReduceSum"``, as a MindIR file stores it), or None.

    The one place a Primitive name becomes a class (MindIR loading calls it; there is no second list
    of ops). The classes generated from table entries are exported by ``sporax.ops.operations``
    beside those not yet declared in the table, so one lookup there answers for both.
    """
    # Imported on use: the Primitive faces import this table.
    import sporax.ops as ops_namespace
    from sporax.ops import operations
    from sporax.ops.operations import grad_ops, scalar_ops
    from sporax.ops.primitive import Primitive

    # backward kernels (``NLLLossGrad``) appear in the files of exported gradient networks; ``scalar_ops`` has the
    # classes of the Python-value Primitives ``ops.operations`` holds as instances (``string_mul``)
    for namespace in (operations, ops_namespace, grad_ops, scalar_ops):
        candidate = getattr(namespace, name, None)
        if inspect.isclass(candidate) and issubclass(candidate, Primitive):
            return candidate
    return None

"""``ops.Primitive``: the base of MindSpore's operator classes.

Primitive classes are thin adapters: ``__init__`` records attributes, ``__call__`` calls the
functional op. Users subclass ``Primitive`` as in MindSpore.

Example:
    >>> from sporax import ops
    >>> relu = ops.ReLU()
    >>> relu.name
    'ReLU'
"""
import functools
import inspect

from sporax.ops.op_table import PRIMITIVES
from sporax.ops.primitive_io_names import IO_NAMES
from sporax.state.discovery import is_parameter


class Primitive:
    """Base class of operator primitives.

    Args:
        name (str): the primitive's name (``ReLU``).
    """

    def __init__(self, name=None):
        self.name = name or type(self).__name__
        self.attrs = {}
        self.instance_name = ""
        # sporax's own Primitives record MindSpore 2.10's io names where MindSpore's do (a user's subclass of
        # the same name records its own, as in MindSpore)
        if self.name in IO_NAMES and type(self).__module__.startswith("sporax."):
            self.init_prim_io_names(*IO_NAMES[self.name])

    def _sporax_reachable(self):
        # State discovery walks a Cell's Primitives through this: a seeded random Primitive keeps its stream's
        # counter as a Parameter (nn.Dropout's), which the compiled step must carry and write back.
        return [value for value in vars(self).values() if is_parameter(value)]

    def add_prim_attr(self, name, value):
        """Record attribute ``name`` in ``attrs`` and as the instance's attribute; returns self so calls chain.

        As in MindSpore the instance attribute shadows a method of that name (``recompute()`` records
        ``recompute``), and assigning the attribute directly later leaves ``attrs`` as it was.
        """
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name):
        """Remove an attribute ``add_prim_attr`` recorded (from ``attrs`` and the instance); returns self.

        Like MindSpore, a name only one of the two holds is left alone.
        """
        if name in self.__dict__ and name in self.attrs:
            del self.__dict__[name]
            del self.attrs[name]
        return self

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Record the names of the inputs and outputs as the attributes ``input_names``/``output_names``.

        Custom Primitives call it in ``__init__``; the names are kept as given (MindSpore does not check
        them) and appear in ``attrs``.

        Args:
            inputs (list[str]): the inputs' names.
            outputs (list[str]): the outputs' names.
        """
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)

    def shard(self, in_strategy=None, out_strategy=None):
        """Set how the inputs (and outputs) are split over devices; returns self.

        The strategies act in SEMI_AUTO_PARALLEL/AUTO_PARALLEL inside compiled programs (sharding
        constraints that XLA's partitioner honours); in other modes they are only recorded.

        Args:
            in_strategy (tuple): per input, a tuple of split counts per dimension or a called ``Layout``.
            out_strategy (tuple): the same for the outputs. Default: ``None``.
        """
        # Sharding belongs to sporax.parallel (above ops); imported on use.
        from sporax.parallel.shard import shard_primitive

        return shard_primitive(self, in_strategy, out_strategy)

    def set_user_data(self, key, value):
        """Attach ``value`` to this Primitive under ``key`` (read back with ``get_user_data``)."""
        self.__dict__.setdefault("_user_data", {})[key] = value

    def get_user_data(self, key):
        """The value ``set_user_data`` attached under ``key``."""
        user_data = self.__dict__.get("_user_data", {})
        if key not in user_data:
            raise RuntimeError(f"{self.name}.get_user_data: no user data under key {key!r}; attach it first with "
                               f"set_user_data({key!r}, value). Keys set: {sorted(user_data)}.")
        return user_data[key]

    def set_device(self, device_target):
        """Record the device this Primitive should run on (``primitive_target``); returns self.

        XLA places every op of a program on one device, so the target is recorded only.

        Raises:
            RuntimeError: ``device_target`` is not 'CPU', 'GPU' or 'Ascend' (MindSpore's message).
        """
        if device_target not in ("CPU", "GPU", "Ascend"):
            raise RuntimeError(f"Call 'add_attr' to add attribute to primitive '{self.name}' failed, value of "
                               f"attribute 'primitive_target' must be CPU|GPU|Ascend but got {device_target}")
        return self.add_prim_attr("primitive_target", device_target)

    def set_stage(self, stage):
        """Record the pipeline stage this Primitive belongs to (attribute ``stage``); returns self."""
        return self.add_prim_attr("stage", stage)

    def place(self, role, rank_id):
        """Record the process that runs this Primitive (MindSpore's ``ms_role``/``rank_id`` attributes).

        Args:
            role (str): 'MS_WORKER', the only role MindSpore accepts.
            rank_id (int): the rank, >= 0.

        Raises:
            ValueError: another role, or a negative ``rank_id``.
            TypeError: ``rank_id`` is not an int.
        """
        if role != "MS_WORKER":
            raise ValueError(f"For 'Primitive.place', the 'role' must be str and must be in 'MS_WORKER', but got "
                             f"'{role}'.")
        if not isinstance(rank_id, int) or isinstance(rank_id, bool):
            raise TypeError(f"For 'Primitive.place', the 'rank_id' must be int, but got '{type(rank_id).__name__}'")
        if rank_id < 0:
            raise ValueError(f"For 'Primitive.place', the 'rank_id' must be int and must >= 0, but got '{rank_id}' "
                             f"with type 'int'.")
        self.add_prim_attr("ms_role", role)
        self.add_prim_attr("rank_id", rank_id)

    def recompute(self, mode=True):
        return self.add_prim_attr("recompute", mode)

    def __call__(self, *args):
        # A Primitive declaring only its interface runs the op-table entry of its name, with its
        # attributes as the op's settings (MindSpore runs the backend kernel of that name).
        entry = PRIMITIVES.get(self.name)
        if entry is None:
            raise NotImplementedError(
                f"Primitive {self.name} does not define __call__ and sporax has no op whose Primitive is "
                f"named '{self.name}' (sporax.ops.op_table.PRIMITIVES lists those it has): implement "
                "__call__ in the Primitive subclass.")
        return entry.call_primitive(self, *args)

    def __getattr__(self, item):
        # Reached only when ordinary lookup fails: an attribute that is only in ``attrs`` (set through the
        # dict) reads from there, as MindSpore's does.
        attrs = self.__dict__.get("attrs")
        if attrs is not None and item in attrs:
            return attrs[item]
        raise AttributeError(f"'{self.__dict__.get('name', type(self).__name__)}' object has no attribute '{item}'")

    def __repr__(self):
        # MindSpore's form: Prim[MatMul]<transpose_a=False, transpose_b=False, in_strategy=...>.
        attrs = ", ".join(f"{key}={value}" for key, value in self.attrs.items()
                          if key not in ("input_names", "output_names"))
        return f"Prim[{self.name}]<{attrs}>" if attrs else f"Prim[{self.name}]"


class PrimitiveWithInfer(Primitive):
    """A Primitive whose shape/dtype inference is done by ``__call__`` itself in sporax."""


class PrimitiveWithCheck(Primitive):
    """A Primitive with argument checks; sporax runs them inside ``__call__``."""


def prim_attr_register(init):
    """Decorate a Primitive's ``__init__`` so its arguments become attributes."""

    @functools.wraps(init)
    def wrapper(self, *args, **kwargs):
        Primitive.__init__(self, type(self).__name__)
        bound = inspect.signature(init).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(name, value)
        init(self, *args, **kwargs)

    return wrapper


_primitive_cache = {}


def _get_cache_prim(cls):
    """``mindspore.ops._primitive_cache._get_cache_prim``: a factory giving one shared ``cls`` instance per
    set of constructor arguments.

    Library code writes ``_get_cache_prim(ops.ReduceSum)(keep_dims=True)(x)`` in its forward methods so
    that each call does not build a new Primitive; equal arguments (compared as their text, as MindSpore
    does, so Tensors and lists work as keys) give the very same instance.

    Args:
        cls (type): a ``Primitive`` subclass.

    Returns:
        A function taking ``cls``'s constructor arguments and returning the cached instance.

    Example:
        >>> from sporax import ops
        >>> from sporax.ops.primitive import _get_cache_prim
        >>> _get_cache_prim(ops.ReduceSum)(keep_dims=True) is _get_cache_prim(ops.ReduceSum)(keep_dims=True)
        True
    """
    if not isinstance(cls, type):
        raise TypeError(f"_get_cache_prim: `cls` must be a Primitive class (ops.ReduceSum), got {cls!r}.")

    def cached_instance(*args, **kwargs):
        key = (cls, tuple(str(value) for value in args),
               tuple((name, str(value)) for name, value in kwargs.items()))
        primitive = _primitive_cache.get(key)
        if primitive is None:
            primitive = _primitive_cache[key] = cls(*args, **kwargs)
        return primitive

    return cached_instance

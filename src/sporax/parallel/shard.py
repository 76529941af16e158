"""``Primitive.shard``, ``Cell.shard`` and ``ms.shard``: where strategies attach to a program.

Contract (MindSpore 2.10): a strategy acts only in SEMI_AUTO_PARALLEL or AUTO_PARALLEL; in
STAND_ALONE and DATA_PARALLEL it is recorded and ignored. ``Cell.shard`` and ``ms.shard`` do
nothing when there is a single device (MindSpore returns ``fn`` itself when the group size is 1).

Algorithm:

- ``Primitive.shard`` checks the strategy, records ``in_strategy``/``out_strategy`` (or
  ``in_layout``/``out_layout``) attributes, and moves the instance to a subclass of its class
  whose ``__call__`` constrains the inputs and outputs (``strategy.constrain``) while a sporax
  trace runs in a sharding mode. Unsharded Primitives keep their class, so eager dispatch pays
  nothing for the feature.
- ``Cell.shard`` registers a forward pre-hook and a forward hook on the Cell (the hook machinery
  of ``sporax.nn.cell_hooks``): inside a trace they constrain the Cell's inputs and outputs; at
  the top level of a GRAPH_MODE call, where hooks run before the compiled program, they place
  the inputs on the devices with ``jax.device_put`` so the program starts from that sharding.
- ``parameter_plan`` places each named Parameter's value with its sharding (``device_put``); the
  compiled program keeps that input sharding and GSPMD propagates it.
- ``ms.shard(fn, ...)`` returns a function that constrains like ``Cell.shard``; called outside a
  trace it runs ``fn`` through ``sporax.jit`` so the constraints take effect.

The collectives are XLA's: ``sporax.graph.cell_jit.compiled_text`` shows them in the program.
"""
import functools
import logging

import jax

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.parallel import strategy as strategies
from sporax.parallel.layout import Layout

logger = logging.getLogger("sporax.parallel")


# --- Primitive.shard ---------------------------------------------------------------------------
def _restore_sharded(base, state):
    primitive = base.__new__(base)
    primitive.__dict__.update(state)
    primitive.__class__ = _sharded_class(base)
    return primitive


def _batch_items(args):
    """The data-parallel strategy of ``args``: dimension 0 of each non-Parameter Tensor over all devices."""
    count = strategies.device_count()
    items = []
    for value in args:
        shape = getattr(value, "shape", ())
        splittable = (isinstance(value, Tensor) and not isinstance(value, Parameter) and len(shape) >= 1
                      and shape[0] % count == 0)
        items.append(((count,) + (1,) * (len(shape) - 1)) if splittable else None)
    return tuple(items)


def _sharded_call(self, *args, **kwargs):
    base_call = self._sporax_sharded_base.__call__
    if not strategies.sharding_active():
        return base_call(self, *args, **kwargs)
    if "_sporax_strategy" not in self.__dict__:  # set_data_parallel and no explicit strategy
        return base_call(self, *strategies.constrain_all(self.name, args, _batch_items(args)), **kwargs)
    in_items, out_items = self.__dict__["_sporax_strategy"]
    args = strategies.constrain_all(self.name, args, in_items)
    result = base_call(self, *args, **kwargs)
    if out_items is None:
        return result
    if isinstance(result, tuple):
        return strategies.constrain_all(self.name, result, out_items)
    return strategies.constrain(self.name, result, out_items[0])


def _reduce_sharded(self):
    return _restore_sharded, (self._sporax_sharded_base, dict(self.__dict__))


@functools.lru_cache(maxsize=None)
def _sharded_class(base):
    namespace = {"__call__": _sharded_call, "__reduce__": _reduce_sharded, "_sporax_sharded_base": base,
                 "__module__": base.__module__, "__qualname__": base.__qualname__, "__doc__": base.__doc__}
    return type(base.__name__, (base,), namespace)


def shard_primitive(primitive, in_strategy=None, out_strategy=None):
    """``Primitive.shard``: check and record the strategies; they act in the sharding modes."""
    if in_strategy is None and out_strategy is None:
        return primitive
    name = primitive.name
    nested = name in strategies.TUPLE_IN_TUPLE_PRIMITIVES or bool(primitive.attrs.get("self_define_shard", False))
    in_layout = None if in_strategy is None else strategies.check_strategy(name, in_strategy, "in_strategy", nested)
    out_layout = None if out_strategy is None else strategies.check_strategy(name, out_strategy, "out_strategy",
                                                                             nested)
    is_layout = in_layout if in_layout is not None else out_layout
    if out_layout is not None and is_layout != out_layout:
        raise ValueError("The in_strategy type must equal to the out_strategy type, one using tuple(tuple) and the "
                         "other using tuple(Layout) is not allowed.")
    if in_strategy is None:
        raise ValueError(f"The out_strategy of {name} is {out_strategy}, need to set in_strategy, but got none")
    if is_layout:
        primitive.add_prim_attr("in_layout", strategies.layout_values(in_strategy, "in_strategy"))
        if out_strategy is not None:
            primitive.add_prim_attr("out_layout", strategies.layout_values(out_strategy, "out_strategy"))
    else:
        primitive.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            primitive.add_prim_attr("out_strategy", out_strategy)
    primitive.__dict__["_sporax_strategy"] = (in_strategy or None, out_strategy or None)
    base = type(primitive).__dict__.get("_sporax_sharded_base", type(primitive))
    primitive.__class__ = _sharded_class(base)
    return primitive


def _split_batch(cell, args):
    """Forward pre-hook of ``set_data_parallel``: the Cell's batch inputs split over the devices."""
    if not strategies.sharding_mode():
        return args
    items = _batch_items(args)
    owner = type(cell).__name__
    if strategies.sharding_active():
        return strategies.constrain_all(owner, args, items)
    return tuple(Tensor._wrap(jax.device_put(value._value, strategies.sharding_for(owner, item, value.shape)))
                 if item is not None else value for value, item in zip(args, items))


def data_parallel_cell(cell):
    """``Cell.set_data_parallel``: every Primitive below ``cell`` without a strategy splits its batch.

    MindSpore marks the Primitives ``strategy_gen_mode='data_parallel'``; in a sharding mode each such
    Primitive splits dimension 0 of its Tensor inputs that are not Parameters over all devices (the
    Parameters stay whole, so their gradients are all-reduced), in place of the strategy search.
    """
    from sporax.ops.primitive import Primitive

    for _, sub in cell.cells_and_names():
        # sporax Cells mostly call functional ops, not Primitive attributes: each Cell's batch inputs
        # are split too (the same strategy MindSpore gives its first op); GSPMD propagates it inward.
        if sub.__dict__.get("_in_strategy") is None and "_sporax_data_parallel_handle" not in sub.__dict__:
            sub.__dict__["_sporax_data_parallel_handle"] = sub.register_forward_pre_hook(_split_batch)
        for value in list(vars(sub).values()):
            if not isinstance(value, Primitive):
                continue
            value.add_prim_attr("strategy_gen_mode", "data_parallel")
            if "_sporax_strategy" not in value.__dict__:
                base = type(value).__dict__.get("_sporax_sharded_base", type(value))
                value.__class__ = _sharded_class(base)


# --- Cell.shard and ms.shard -------------------------------------------------------------------
def _place(owner, values, items):
    """Constrain (in a trace) or place (outside one) ``values`` by ``items`` in a sharding mode."""
    if items is None or not strategies.sharding_mode():
        return values
    if strategies.sharding_active():
        return strategies.constrain_all(owner, values, items)
    placed = list(values)
    for index, (value, item) in enumerate(zip(values, items)):
        if isinstance(value, Tensor):
            sharding = strategies.sharding_for(owner, item, value.shape)
            placed[index] = Tensor._wrap(jax.device_put(value._value, sharding))
    return tuple(placed)


def _place_outputs(owner, result, items):
    if isinstance(result, tuple):
        return _place(owner, result, items)
    return _place(owner, (result,), items[:1] if items else items)[0]


def _check_parameter_plan(fn, parameter_plan):
    if parameter_plan is None:
        return {}
    from sporax.nn.cell import Cell

    if not isinstance(parameter_plan, dict):
        raise TypeError(f"For 'Shard', the 'parameter_plan' should be a dict or None, "
                        f"but got {type(parameter_plan).__name__}")
    if not isinstance(fn, Cell):
        raise TypeError(f"If parameter_plan is set, type of fn must be mindspore.nn.Cell, but got {type(fn)}")
    for key, value in parameter_plan.items():
        if not isinstance(key, str) or not isinstance(value, (tuple, Layout)):
            raise TypeError("For 'Shard', the type of each key and value in 'parameter_plan' must be str and "
                            f"tuple/Layout, but got {type(key).__name__} and {type(value).__name__}")
    return parameter_plan


def _apply_parameter_plan(cell, parameter_plan):
    """Give each named Parameter its strategy; in a sharding mode, place its value accordingly."""
    by_name = {param.name: param for param in cell.trainable_params()}
    for key, item in parameter_plan.items():
        param = by_name.get(key.replace("self.", "", 1) if key.startswith("self.") else key)
        if param is None:
            logger.warning("%s is not exist, ignored its setting.", key)
            continue
        if isinstance(item, tuple):
            if len(item) != len(param.shape):
                raise ValueError(f"For {key}, the length of param_strategy: {len(item)}, is not equal to "
                                 f"param_shape len: {len(param.shape)}.")
            for index, (extent, split) in enumerate(zip(param.shape, item)):
                if split <= 0 or extent % split:
                    raise ValueError(f"For '{key}', the param_shape is {tuple(param.shape)} and the setting "
                                     f"param_strategy is {item}. The param_shape[{index}]: {extent} cannot be "
                                     f"divisible by param_strategy[{index}]: {split}.")
        param.__dict__["_sporax_strategy"] = item
        if strategies.sharding_mode():
            sharding = strategies.sharding_for(key, item, param.shape)
            param.set_data(Tensor._wrap(jax.device_put(param._value, sharding)))


def _check_function_strategies(in_strategy, out_strategy):
    strategies.check_function_strategy(in_strategy, "in_strategy")
    strategies.check_function_strategy(out_strategy, "out_strategy", optional=True)


def shard_cell(cell, in_strategy, out_strategy=None, parameter_plan=None):
    """``Cell.shard``: constrain the Cell's inputs/outputs and place the planned Parameters."""
    if jax.device_count() == 1:  # MindSpore: nothing to do when the group size is 1
        return None
    _check_function_strategies(in_strategy, out_strategy)
    plan = _check_parameter_plan(cell, parameter_plan)
    owner = type(cell).__name__
    if cell.__dict__.get("_in_strategy") is not None:
        logger.warning("For '%s', 'Shard' has been configured more than once; the new strategies replace the old.",
                       owner)
        for handle in cell.__dict__.get("_sporax_shard_handles", ()):
            handle.remove()

    def before(_, args):
        return _place(owner, args, in_strategy)

    def after(_, args, output):
        return _place_outputs(owner, output, out_strategy)

    cell.__dict__["_sporax_shard_handles"] = (cell.register_forward_pre_hook(before),
                                              cell.register_forward_hook(after))
    cell.__dict__["_in_strategy"], cell.__dict__["_out_strategy"] = in_strategy, out_strategy
    _apply_parameter_plan(cell, plan)
    return None


class _ShardedFunction:
    """What ``ms.shard(fn, ...)`` returns: ``fn`` with its inputs and outputs constrained."""

    def __init__(self, fn, in_strategy, out_strategy):
        self.fn, self.in_strategy, self.out_strategy = fn, in_strategy, out_strategy
        self.owner = getattr(fn, "__name__", type(fn).__name__)
        self._compiled = None
        functools.update_wrapper(self, fn, updated=())

    def _body(self, *args):
        args = _place(self.owner, args, self.in_strategy)
        return _place_outputs(self.owner, self.fn(*args), self.out_strategy)

    def _sporax_reachable(self):
        return [self.fn]

    def __call__(self, *args):
        if strategies.sharding_mode() and not strategies.sharding_active():
            if self._compiled is None:
                from sporax.graph.jit import jit

                self._compiled = jit(self._body)
            return self._compiled(*args)
        return self._body(*args)


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """Run ``fn`` (a Cell or function) with its inputs/outputs sharded by the given strategies.

    Args:
        fn (Union[Cell, Function]): what to shard.
        in_strategy (tuple): one strategy (a tuple of split counts, or a called ``Layout``) per input.
        out_strategy (tuple, optional): one per output. Default: ``None``.
        parameter_plan (dict, optional): Parameter name -> strategy, for a Cell. Default: ``None``.

    Returns:
        The sharded function; ``fn`` itself when there is a single device (as MindSpore).

    Example:
        >>> import sporax as ms
        >>> double = ms.shard(lambda x: x * 2, in_strategy=((1,),))
    """
    if jax.device_count() == 1:  # MindSpore: nothing to do when the group size is 1
        return fn
    from sporax.nn.cell import Cell

    _check_function_strategies(in_strategy, out_strategy)
    plan = _check_parameter_plan(fn, parameter_plan)
    if not isinstance(fn, Cell):
        logger.warning("'fn' is not a mindspore.nn.Cell, and its definition cannot involve Parameter; "
                       "otherwise, the result may be incorrect.")
    else:
        _apply_parameter_plan(fn, plan)
    return _ShardedFunction(fn, in_strategy, out_strategy)

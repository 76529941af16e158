"""The one module that reaches into JAX's private modules (``jax._src``), behind small named functions.

JAX gives no public API for a few things sporax needs: telling tracer kinds apart (a staged
trace, forward mode, reverse mode), walking a jaxpr being staged, reading a tracer's concrete
value, asking whether backends already started, reaching the distributed client, and compiling
a lowered program only from the persistent compilation cache or without writing to it. Every such
use is here, so a JAX upgrade that moves them breaks this one file (and its tests), and the
import-linter contract in ``pyproject.toml`` keeps it so.

Example:
    >>> from sporax.core import jax_private
    >>> jax_private.is_transforming()
    False
"""
import threading

from jax._src import compiler as _compiler
from jax._src import core as _core
from jax._src import distributed as _distributed
from jax._src import xla_bridge as _xla_bridge
from jax._src.interpreters import ad as _ad
from jax._src.interpreters import batching as _batching
from jax._src.interpreters import mlir as _mlir
from jax._src.interpreters import partial_eval as _partial_eval

# A jaxpr literal (an inline constant), for isinstance checks of what a jaxpr holds.
Literal = _core.Literal
_DynamicJaxprTracer = _partial_eval.DynamicJaxprTracer


def is_staged_tracer(value):
    """Whether ``value`` is a tracer of a jaxpr being staged (``jax.jit``, ``make_jaxpr``, loop bodies)."""
    return isinstance(value, _DynamicJaxprTracer)


def staged_constant(value):
    """The value of a staged tracer that is itself a constant of its program (a Tensor made from Python or NumPy
    values inside a compiled function: ``Tensor(4, mstype.int32)`` in a ``construct``), else None.

    Example:
        >>> import jax, numpy as np
        >>> _ = jax.jit(lambda: print(staged_constant(jax.device_put(np.int32(4)))) or 0)()
        4
    """
    if not isinstance(value, _DynamicJaxprTracer):
        return None
    try:
        atom = value.val
        if isinstance(atom, Literal):
            return atom.val
        if getattr(value, "parent", None) is not None:
            return None
        constant = value._trace.frame.constvar_to_val.get(atom)
    except (AttributeError, TypeError):  # another JAX's tracer internals: not known
        return None
    return None if constant is None or isinstance(constant, _core.Tracer) else constant


def is_forward_mode_tracer(value):
    """Whether ``value`` is a forward-mode (``jax.jvp``) tracer."""
    return type(value) is _ad.JVPTracer


def is_reverse_mode_tracer(value):
    """Whether ``value`` is a reverse-mode (``jax.linearize``/``grad``) tracer."""
    return type(value) is _ad.LinearizeTracer


_trace_state = _core.trace_state_strong_ref
_axis_env_state = _core.axis_env_state


def is_transforming():
    """Whether a JAX transformation (``jit`` staging, ``jvp``, ``grad``, ``vmap``) runs now: the current
    trace is not the eager one."""
    # ``not trace_ctx.is_top_level()`` with the two context states read directly: three Python frames
    # fewer on every eager call and PyNative step that asks (issue 26).
    return _trace_state.value is not _core.eval_trace or _axis_env_state.value is not _core.top_axis_env


def of_current_trace(value):
    """Whether ``value`` is a tracer of the trace running now (not of one nested inside it, such as a
    branch of ``lax.cond``, nor of one that already ended): only those may leave it as outputs."""
    return getattr(value, "_trace", None) is _core.trace_ctx.trace


def concrete_value(tracer):
    """The concrete value a tracer still carries (eager differentiation), or None while it is abstract."""
    # A JAX without to_concrete_value: every tracer counts as abstract.
    to_concrete_value = getattr(_core, "to_concrete_value", None)
    return None if to_concrete_value is None else to_concrete_value(tracer)


def batched_values(tracer):
    """The values an eager ``vmap`` tracer carries for its whole batch (nested maps unwrapped), or None when
    they are abstract (under ``jit``, a gradient, or a tracer of another kind)."""
    while isinstance(tracer, _batching.BatchTracer):
        tracer = tracer.val
    return None if isinstance(tracer, _core.Tracer) else tracer


def constant_lineage(value):
    """The operations a staged tracer was computed by when it follows from constants alone, or None.

    Args:
        value: anything; only a tracer of a jaxpr being staged can have a lineage.

    Returns:
        A list of ``(primitive name, which operands are literals, operand shapes)``, one per operation
        the value depends on (``[]`` for a constant itself), or None when it is no staged tracer or it
        depends on an input of the function being staged, a value of an enclosing trace, or an effect.

    Example:
        >>> import jax, jax.numpy as jnp
        >>> _ = jax.jit(lambda: print(constant_lineage(jnp.ones(2) * 2)) or 0)()
        [('mul', (False, True), ((2,), ())), ('broadcast_in_dim', (True,), ((),))]
    """
    if not isinstance(value, _DynamicJaxprTracer):
        return None
    try:
        return _lineage(value)
    except AttributeError:  # another JAX's tracer internals: print as a computed value
        return None


def _lineage(value):
    frame = value._trace.frame
    lineage, seen, pending = [], set(), [value]
    while pending:
        tracer = pending.pop()
        if id(tracer) in seen:
            continue
        seen.add(id(tracer))
        equation = getattr(tracer, "parent", None)
        if equation is None:
            # A leaf: a literal or a constant of this frame is constant; an input or a tracer of
            # another frame is not.
            if not (isinstance(tracer.val, Literal) or (tracer._trace is value._trace and
                                                        tracer.val in frame.constvar_to_val)):
                return None
            continue
        if equation.effects:
            return None
        operands = equation.in_tracers
        lineage.append((equation.primitive.name, tuple(isinstance(operand.val, Literal) for operand in operands),
                        tuple(getattr(operand.aval, "shape", ()) for operand in operands)))
        pending.extend(operands)
    return lineage


def constants_as_inputs(jaxpr):
    """``jaxpr`` with its constant variables turned into leading inputs."""
    return _partial_eval.convert_constvars_jaxpr(jaxpr)


def dead_code_eliminated(jaxpr, used_outputs):
    """``(pruned jaxpr, which inputs it still uses)`` keeping the outputs flagged in ``used_outputs``."""
    return _partial_eval.dce_jaxpr(jaxpr, used_outputs)


def started_backends():
    """The names of the JAX backends this process already created (``{'cpu'}``, ``{'cuda'}`` ...)."""
    return set(getattr(_xla_bridge, "_backends", {}) or ())


def backends_started():
    """Whether JAX already created its backends (after that, XLA flags no longer apply)."""
    return _xla_bridge.backends_are_initialized()


def distributed_client():
    """The client of JAX's coordination service (``jax.distributed.initialize``), or None."""
    return _distributed.global_state.client


# --- compiling with or without the persistent compilation cache ---------------------------------
# JAX compiles through ``compiler.compile_or_get_cached``: a cache read, else
# ``backend_compile_and_load`` and ``_cache_write``. Both are looked up as module globals at each
# call, so one guard each, installed on first use, lets a thread ask for "from the cache or not at
# all" or "compile, but keep it out of the cache"; other threads compile as JAX does.
_compile_policy = threading.local()
_guards = []


class NotInPersistentCache(Exception):
    """Raised inside JAX's compile when the calling thread asked for a cached executable only."""


def _install_compile_guards():
    if _guards:
        return
    backend_compile, cache_write = _compiler.backend_compile_and_load, _compiler._cache_write

    def guarded_backend_compile(*args, **kwargs):
        if getattr(_compile_policy, "cache_only", False):
            raise NotInPersistentCache
        return backend_compile(*args, **kwargs)

    def guarded_cache_write(*args, **kwargs):
        if not getattr(_compile_policy, "no_cache_write", False):
            cache_write(*args, **kwargs)

    _compiler.backend_compile_and_load = guarded_backend_compile
    _compiler._cache_write = guarded_cache_write
    _guards.append(True)


def compile_if_cached(lowered):
    """``lowered.compile()`` when the executable is already compiled (in memory or in the persistent
    cache), else None without compiling."""
    _install_compile_guards()
    _compile_policy.cache_only = True
    try:
        return lowered.compile()
    except NotInPersistentCache:
        return None
    finally:
        _compile_policy.cache_only = False


def compile_uncached(lowered, compiler_options):
    """``lowered.compile(compiler_options)`` without storing the result in the persistent cache."""
    _install_compile_guards()
    _compile_policy.no_cache_write = True
    try:
        return lowered.compile(compiler_options=compiler_options)
    finally:
        _compile_policy.no_cache_write = False


def generic_lowering(primitive):
    """JAX's MLIR lowering rule of ``primitive`` for every platform without a rule of its own."""
    return _mlir._lowerings[primitive].rule

"""The one program cache: compiled programs of a GRAPH_MODE Cell, an ``ms.jit`` function, a sink loop
or a PyNative gradient, one per static signature.

The key rule (DESIGN 2.7), the same for every user:

* the call's argument signature (``sporax.state.arguments.signature``): shapes and dtypes of
  traced arguments, values of static ones (Python scalars, strings, dtypes, Cells by identity),
  and the identity of Parameter arguments that are lifted as state;
* the static signature of the Cell tree the callable reaches: every Cell's ``training`` flag
  and the static epoch (Cell hooks, ``recompute``), so ``set_train()`` recompiles; or, for a
  GRAPH_MODE Cell (``phase``), that Cell's own phase and the static epoch: MindSpore keys a Cell's
  graph on its phase, so a child's ``set_train()`` after the Cell compiled leaves its graph as it was;
* the caller's own static part (``extra``: a gradient's map of repeated input Tensors).

The state a program lifts (``sporax.state.lifting``) is the discovery of the callable's roots
(``sporax.state.discovery``), plus, with ``lift_arguments``, the Cells and Parameters passed as
arguments: a Parameter argument written inside the compiled function (``ops.assign``, an optimizer
update, ``DynamicLossScaleUpdateCell``'s loss scale) holds the new value afterwards, as in
MindSpore. Programs are grouped by which such arguments a call passes, so each group lifts a
fixed set of states. When the discovered state changes (a Cell tree was edited) the group's
programs are dropped.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.state.program import build_program
    >>> from sporax.state.program_cache import ProgramCache
    >>> def double(x):
    ...     return x + x
    >>> cache = ProgramCache("double", double)
    >>> def build(args, kwargs, arrays, discovered):
    ...     return build_program(lambda traced: double(Tensor._wrap(traced[0])), discovered, arrays, "double")
    >>> program, arrays = cache.lookup((Tensor(np.ones(2, np.float32)),), {}, build)
    >>> program(arrays).asnumpy().tolist()
    [2.0, 2.0]
"""
import itertools
import threading
import time
import types
import warnings

import jax

from sporax.core import jax_private, process_setup
from sporax.core.tensor import Tensor
from sporax.state.arguments import plain_marks, signature
from sporax.state.discovery import DiscoveryCache, is_cell, is_parameter, structure_version


def _holds_parameters(value):
    if not isinstance(value, (list, tuple)):
        return False
    for item in value:
        if type(item) is not Tensor and is_parameter(item):  # a plain Tensor (a gradient) is the common case
            return True
    return False


def state_arguments(args, kwargs):
    """The arguments that carry state to lift: Cells, Parameters and sequences of Parameters."""
    found = []
    for value in (itertools.chain(args, kwargs.values()) if kwargs else args):
        value_type = type(value)
        if value_type is Tensor:  # the common case: data
            continue
        if value_type is tuple or value_type is list:  # an optimizer's gradients: no Cell test (two failing hasattr)
            if _holds_parameters(value):
                found.append(value)
        elif is_parameter(value) or is_cell(value) or _holds_parameters(value):
            found.append(value)
    return found


MAX_PROGRAMS = 64  # per group, the oldest dropped first


class _Group:
    """The programs of calls that pass the same state-carrying arguments."""

    __slots__ = ("discovery", "discovered", "owned", "programs", "walks_functions")

    def __init__(self, roots):
        self.discovery = DiscoveryCache(*roots)
        self.discovered = None
        self.owned = None
        self.programs = {}
        # Functions can reach new objects between calls (a global rebound): their references are
        # re-checked on every call; a Cell tree only when some tree changed.
        self.walks_functions = any(isinstance(root, (types.FunctionType, types.MethodType)) for root in roots)


class ProgramCache:
    """Compiled programs of one callable (see the module docstring for the key rule).

    Args:
        name (str): the callable's name in errors and warnings.
        roots (tuple): what the callable can reach: the Cell, the function.
        lift_arguments (bool): lift Cells and Parameters passed as arguments. Default: True.
        extra_states (tuple): more states to lift (a gradient's weights). Default: ().
    """

    __slots__ = ("name", "roots", "lift_arguments", "extra_states", "_groups", "_last", "__weakref__")

    def __init__(self, name, *roots, lift_arguments=True, extra_states=()):
        self.name = name
        self.roots = roots
        self.lift_arguments = lift_arguments
        self.extra_states = list(extra_states)
        self._groups = {}
        # The last call made with plain Tensors: (its group's programs, marks, flags, extra, program). The
        # next step's call with the same marks (``arguments.plain_marks``) takes its program without
        # building and hashing the signature key: the host path of a PyNative step (issue 26).
        self._last = None

    # A copied or pickled owner compiles afresh: programs and discovery belong to the original.
    def __deepcopy__(self, memo):
        return None

    def __copy__(self):
        return None

    def __reduce__(self):
        return (_no_cache, ())

    def invalidate(self):
        """Forget the discovered state and every program (after a Cell tree changed)."""
        self._groups = {}
        self._last = None

    def forget(self, program):
        """Drop ``program`` from the cache: the next call with its signature builds it anew."""
        for group in self._groups.values():
            for key in [key for key, value in group.programs.items() if value is program]:
                del group.programs[key]
        self._last = None

    @property
    def programs(self):
        """Every program compiled so far (for inspection and tests)."""
        return [program for group in self._groups.values() for program in group.programs.values()]

    def group(self, args, kwargs, plain=False):
        """The program group of a call, its discovered state up to date. ``plain``: the arguments are known
        to be plain Tensors and tuples of them (``arguments.plain_marks``), which carry no state."""
        arguments = state_arguments(args, kwargs) if self.lift_arguments and not plain else ()
        key = tuple(map(id, arguments))
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _Group(self.roots + tuple(arguments))
        if group.discovered is None or group.walks_functions or group.discovery.version != structure_version():
            discovered = group.discovery.get()
            if discovered is not group.discovered:
                if self.extra_states:
                    discovered.add(self.extra_states)
                group.discovered = discovered
                group.owned = {id(state) for state in discovered.states}
                group.programs = {}
        return group

    def states(self, args, kwargs):
        """The states a call lifts (what an enclosing trace must own when the call runs inline)."""
        return self.group(args, kwargs).discovered.states

    def lookup(self, args, kwargs, build, extra=None, prepare=None, first_compile=None, group=None, signed=None,
               phase=None):
        """``(program, arrays)`` for a call: the cached program, or ``build(args, kwargs, arrays, discovered)``.

        ``arrays`` are the call's traced arrays, the program's input; ``prepare(arrays)`` may replace
        them (a process's batch becomes its slice of the global batch); ``first_compile(arrays)`` runs
        before the first program of this cache is built. ``group``: the call's ``group(args, kwargs)``
        when the caller just took it (not taken twice per call on the hot path). ``signed``: the call's
        ``signature`` when the caller keeps it (arguments without states: pending gradients' placeholders).
        ``phase``: a GRAPH_MODE Cell's own phase, which keys its programs in place of the tree's flags.
        """
        plain = None if kwargs or signed is not None else plain_marks(args)
        if group is None:
            group = self.group(args, kwargs, plain is not None)
        flags = group.discovered.training_flags() if phase is None else group.discovered.phase_flags(phase)
        # A program's jaxpr holds each product's precision: a precision setting has programs of its own.
        precision = process_setup.product_precision
        last = self._last
        if plain is not None and last is not None and last[0] is group.programs and last[2] is flags \
                and last[1] == plain[1] and last[3] == extra and last[5] == precision:
            arrays = plain[0]
            return last[4], (arrays if prepare is None else prepare(arrays))
        key, arrays = signature(args, kwargs, group.owned if self.lift_arguments else None) if signed is None else signed
        if prepare is not None:
            arrays = prepare(arrays)
        key = (key, flags, extra, precision)
        program = group.programs.get(key)
        if program is not None and plain is not None:
            self._last = (group.programs, plain[1], flags, extra, program, precision)
        if program is None:
            if first_compile is not None and not group.programs:
                first_compile(arrays)
            program = build(args, kwargs, arrays, group.discovered)
            if len(group.programs) >= MAX_PROGRAMS:
                # A key that moves every call (a PyNative gradient's function reads a Tensor its caller
                # replaces each step) would otherwise keep every program and the Tensors in its key.
                del group.programs[next(iter(group.programs))]
            group.programs[key] = program
            group.owned.update(id(state) for state in group.discovered.states)
            if not program.eager:
                _record_built(self.roots, program, arrays)
                start_without_waiting(program, arrays)
        return program, arrays


# --- the first steps without waiting for the full compile ---------------------------------------

# A program whose quick compile took less than this is small: its full compile follows at once.
SHORT_COMPILE_SECONDS = 0.5
# Programs with fewer lowered operations compile in about a second on XLA:CPU (LeNet5's train step
# has ~490): a quick compile would not be shorter, so they compile once, as JAX does.
MIN_OPERATIONS = 700

_full_compiles = []  # background threads still compiling


class QuickStart:
    """A program's compiled function while its full compile runs in a background thread.

    Steps run the quick executable; the first step after the full compile finished puts the
    program's own jitted function back, which finds that executable compiled (JAX keeps it with
    the lowering), so no step waits for it. A background compile that fails leaves the quick
    executable in place, with a warning naming the cause.

    Args:
        program (Program): the program; its ``_donating`` function is replaced until the takeover.
        lowered (jax.stages.Lowered): the program lowered for its first call.
        quick (jax.stages.Compiled): ``lowered`` compiled with ``QUICK_COMPILER_OPTIONS``.
    """

    __slots__ = ("program", "jitted", "quick", "thread", "error", "quick_calls")

    def __init__(self, program, lowered, quick):
        self.program = program
        self.jitted = program._donating
        self.quick = quick
        self.error = None
        self.quick_calls = 0
        # Not a daemon: an exiting interpreter waits for the compile instead of tearing XLA down under it.
        self.thread = threading.Thread(target=self._compile, args=(lowered,), name=f"sporax full compile of {program.name}")
        _full_compiles.append(self.thread)
        self.thread.start()

    def _compile(self, lowered):
        try:
            lowered.compile()  # stored with the lowering (and in the persistent cache) for the jitted function
        except Exception as error:  # noqa: BLE001 - reported on the main thread at the takeover
            self.error = error
        finally:
            _full_compiles.remove(threading.current_thread())

    def __call__(self, *arguments):
        if not self.thread.is_alive() and self.error is None:
            self.program._donating = self.jitted
            return self.jitted(*arguments)
        if self.error is not None and self.program._donating is self:
            warnings.warn(f"{self.program.name}: the full compile in the background failed ({type(self.error).__name__}: "
                          f"{self.error}); steps keep running the quickly compiled program, which computes the same "
                          "values, possibly slower. SPORAX_BACKGROUND_COMPILE=off compiles only the full program.",
                          RuntimeWarning, stacklevel=3)
            self.program._donating = self.quick_or_jitted
        return self.quick_or_jitted(*arguments)

    def quick_or_jitted(self, *arguments):
        """The quick executable, or the jitted function inside a trace (an executable takes no tracers)."""
        if jax_private.is_transforming():
            return self.jitted(*arguments)
        try:
            result = self.quick(*arguments)
        except TypeError:
            # Arguments the executable was not compiled for (a weak type where it had a strong one):
            # rejected before it ran, so nothing was donated; the jitted function handles them.
            return self.jitted(*arguments)
        self.quick_calls += 1
        return result


def start_without_waiting(program, arrays):
    """Give a large program a quick compile now and its full compile in the background (see ``QuickStart``).

    Only when switched on (``SPORAX_BACKGROUND_COMPILE=on``; off by default, see
    ``process_setup.background_compile``), on XLA:CPU (not measured elsewhere), outside traces, and
    unless the full program is already compiled (in memory or in the persistent cache).
    """
    if program.world or not process_setup.background_compile() or jax_private.is_transforming() or \
            jax.default_backend() != "cpu":
        return
    lowered = program.lower(arrays)
    if lowered.as_text().count("\n") < MIN_OPERATIONS or jax_private.compile_if_cached(lowered) is not None:
        return
    started = time.perf_counter()
    try:
        # Kept out of the persistent cache: its entry would only take room (the full program is stored there).
        quick = jax_private.compile_uncached(lowered, process_setup.QUICK_COMPILER_OPTIONS)
    except Exception:  # noqa: BLE001 - an XLA without these options: the first call compiles as usual
        return
    if time.perf_counter() - started < SHORT_COMPILE_SECONDS:
        return  # the full compile is short too: the first call compiles it
    program._donating = QuickStart(program, lowered, quick)


def wait_for_full_compiles():
    """Wait until every full compile running in the background finished (tests, benchmarks)."""
    for thread in list(_full_compiles):
        thread.join()


# The program built last per phase, with its input shapes (not the arrays: they would stay alive),
# for ``flops_collection``: a Cell in training mode compiles the "train" phase, other Cells
# "eval", jitted functions "jit".
_last_built = {}


def _record_built(roots, program, arrays):
    root = roots[0] if roots else None
    phase = ("train" if root.training else "eval") if is_cell(root) else "jit"
    shapes = jax.tree_util.tree_map(lambda array: jax.ShapeDtypeStruct(array.shape, array.dtype), arrays)
    _last_built[phase] = (program, shapes)


def last_built(phase):
    """``(program, input shapes)`` of the program compiled last for ``phase`` (None if none yet)."""
    return _last_built.get(phase)


def _no_cache():
    return None

"""Every process-wide setting sporax makes: applied once, on import of sporax, from this module only.

Contract: ``apply()`` (run by ``sporax.core`` on import, before anything creates JAX's CPU
client; a second call does nothing) makes the settings below, each with its opt-out. The
README's "Process set-up" section lists them for users. Settings a user asks for later
(``set_context(device_id=...)``, ``set_deterministic``, ``launch_blocking``, ``set_memory``,
``communication.init()``, loading the oneDNN kernels) are made by the named functions at the
end of this module, so no other module edits ``os.environ``, ``jax.config``, malloc or
Python's warning filters.

1. **XLA:CPU flags** (``configure_xla_cpu_flags``): each option of ``XLA_CPU_DEFAULTS`` that the
   user's ``XLA_FLAGS`` does not set is appended to it, when the installed jaxlib is one the option
   was measured on (an option jaxlib does not know aborts the process, so none is set blindly).
   Opt-out: ``SPORAX_XLA_CPU_FLAGS=off``. Only XLA:CPU reads them; if JAX's CPU client already
   exists they apply to the next process. Measured (``benchmarks/xla_flags.py``, jaxlib 0.10.2,
   2-core AMD EPYC): ``--xla_cpu_experimental_ynn_fusion_type=individual_dot,reduce`` keeps YNNPACK
   for matrix products and reductions and gives convolutions back to XLA's Eigen convolution:
   hand-written LeNet5 b256 step 1.17x (CPU time) / 1.12x (wall), ResNet-18 b32 1.01x / 1.20x.
2. **glibc malloc options** (``configure_malloc``): on Linux with glibc, ``MALLOC_OPTIONS`` through
   ``mallopt`` unless the user tunes malloc (``GLIBC_TUNABLES`` naming ``glibc.malloc``, a
   ``MALLOC_*_`` variable, ``LD_PRELOAD``). Opt-out: ``SPORAX_HOST_MALLOC=off``. Why: XLA:CPU
   mallocs every program run's temporary buffers and frees them when the run ends; above glibc's
   mmap threshold each block is a fresh ``mmap``, so every step page-faults and zero-fills its whole
   working set again. With ``mmap`` off for large blocks, a 2 GiB trim threshold and 256 MiB of top
   padding, the next step reuses the heap's pages. Measured (``benchmarks/suite.py``, sporax GRAPH,
   jaxlib 0.10.2, 2-core AMD EPYC): LSTM tagger b32 step 36-45 -> 27-33 ms; the other workloads
   unchanged within noise. ``M_ARENA_MAX`` 1 keeps every thread on that one heap: XLA runs a
   program on its worker threads, and glibc gives each thread an arena of its own whose heaps hold
   at most 64 MiB, so the ResNet-18 b32 step's 158 MiB temporary buffer was still a fresh ``mmap``
   each step (40,000 page faults a step; 0 with one arena, CPU time per step 1.17x lower, the
   Transformer b16's 1.35x). A thread that malloc'd before ``apply()`` keeps its own arena. Cost:
   freed memory stays mapped (up to the trim threshold; the Transformer b16's resident set 1.3 GB
   against 0.7 GB); threads share one malloc lock.
3. **64-bit types** (``jax_enable_x64``): MindSpore has Int64 and Float64 tensors
   (``Tensor([1, 2])`` is Int64), so JAX must keep 64-bit types; sporax's ops choose every result
   dtype themselves and never rely on JAX's defaults. No opt-out: MindSpore's dtypes need it.
4. **The persistent compilation cache** (``configure_compile_cache``): a second run of a script
   reuses the first run's compiled steps. The folder is ``SPORAX_COMPILATION_CACHE_DIR`` (opt-out:
   ``off``, ``0``, ``false`` or empty), else a folder the user already gave JAX
   (``JAX_COMPILATION_CACHE_DIR`` or ``jax.config``: kept), else
   ``$XDG_CACHE_HOME/sporax/jax-cache`` (``~/.cache/sporax/jax-cache``). Programs whose compilation
   took at least ``MIN_COMPILE_SECONDS`` are stored (JAX's own threshold is 1 s; a small train step
   such as LeNet5, ~0.8 s on a 2-core machine, would recompile on every run), unless the user chose
   ``JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS``. ``set_context(enable_compile_cache=False)``
   switches it off and ``compile_cache_path=...`` moves it. JAX keys an entry on the serialized
   program, compile options, XLA flags, jaxlib version and device kind, so an entry is only reused
   for the very program it was compiled from.
5. **Donation warnings**: JAX's "Some donated buffers were not usable" is silenced (sporax donates
   every lifted Parameter; a backend that cannot reuse one buffer is not the user's concern).
6. **A first step without the full compile** (``background_compile``), off unless
   ``SPORAX_BACKGROUND_COMPILE=on`` (read at each program's first compile): on XLA:CPU a large
   program's first compile is a quick one (``QUICK_COMPILER_OPTIONS``: fewer LLVM passes), its
   first steps run on it while the full program compiles in a background thread, and the full
   program takes over between two steps (``sporax.state.program_cache``). Off by default because
   it does not pay on the jaxlib it was measured on (0.10.2, 2-core AMD EPYC): the quick compile
   of sporax's CIFAR ResNet-18 train step takes about the CPU time of the full one (1.50-1.58 s
   against 1.54-1.65 s; most of XLA:CPU's compile is MLIR fusion emission and LLVM machine-code
   generation, which the option does not shorten), while the full compile in the background then
   competes with the steps.
7. **OpenMP variables for oneDNN** (``set_openmp_defaults``, called when sporax's oneDNN kernels
   load, not on import: setting them earlier would change every other OpenMP library of the
   process, PyTorch included, even where no oneDNN kernel runs): ``OMP_WAIT_POLICY=active`` with a
   bounded ``GOMP_SPINCOUNT``, unless the user set either. Opt-out: ``SPORAX_ONEDNN=off`` (no
   kernels, no variables) or setting them yourself. Why: oneDNN's OpenMP threads otherwise sleep
   between a kernel's many short parallel regions; inside an XLA program that made the LSTM
   kernel 2.5x slower than alone.
8. **Import-time objects out of the garbage collector's passes** (``freeze_import_objects``, called
   at the end of ``import sporax``): ``gc.freeze()`` moves every object alive then (sporax's,
   JAX's and NumPy's modules, functions and types: ~200,000 objects) to the collector's permanent
   generation, so a full collection no longer scans them. Opt-out: ``SPORAX_GC_FREEZE=off``. Why:
   tracing a train step allocates enough to trigger a full collection, which scanned all of them
   on the first step: 0.12 s of main-thread CPU on the CIFAR ResNet-18's first step (252,000
   objects; 0.01 s after the freeze), a collection per large trace. Cost: a reference cycle that
   was alive at import and becomes garbage later is never freed (module-level objects, which live
   as long as the process anyway).
9. **Running programs finish before the process exits** (``finish_programs_at_exit``, registered
   when sporax's oneDNN kernels load): an ``atexit`` handler waits for every live array's
   program, then stops the kernels (a call still running finishes, later ones do nothing: the
   results of a program whose arrays were dropped are never read). Why: JAX dispatches asynchronously, so a script whose last calls' results are never
   read (ResNet's predict.py times 100 ``model.predict`` calls, then ends) exits while XLA's
   threads still run them; a oneDNN kernel then ran while the C++ libraries were being torn down
   and the process died of SIGSEGV after printing its result (exit status 139).

10. **float32 products at MindSpore's GPU precision** (``set_product_precision``): every matrix product
   (matmul, bmm, Dense, einsum, attention ...) in full float32, convolutions in TF32 where the GPU has
   it, as MindSpore's GPU defaults (``device_context.gpu.op_precision.matmul_allow_tf32`` False,
   ``conv_allow_tf32`` True). JAX's own default runs float32 matmuls in TF32 on a GPU (max relative
   error 2.9e-4 on a 512x512 ``ops.matmul``, H200). Set through ``jax_default_matmul_precision``,
   which every product that names no precision follows; convolutions name theirs
   (``sporax.core.product_precision.conv_precision``). Opt-out: ``matmul_allow_tf32(True)`` (or
   ``JAX_DEFAULT_MATMUL_PRECISION``, kept as the user's). XLA:CPU computes float32 products in float32
   whatever the precision, so CPU values are unchanged.
11. **NumPy scalars printed as under MindSpore's NumPy** (``mindspore_numpy_printing``, called by
   ``sporax run`` before the script, not on import): MindSpore 2.10 needs NumPy 1.x (1.26), whose
   repr of a scalar is ``0.375``; NumPy 2 writes ``np.float64(0.375)``. A MindSpore script printing
   a dict or list that holds NumPy scalars (``Model.eval``'s metrics, MindSpore's own ``fit``
   "Eval result" line, ``asnumpy()`` sums) printed other text than on MindSpore. Under NumPy >= 2
   ``np.set_printoptions(legacy="1.25")`` (scalars only; arrays print as before). Opt-out:
   ``SPORAX_NUMPY_PRINT=native``.

12. **NaN kept through exp on XLA:CPU** (``keep_nan_through_exp``): on the CPU, ``exp``, ``exp2`` and ``cosh``
   lower to ``max(f(x), x)``, which is ``f(x)`` for every number (``f(x) >= x``) and NaN for NaN; ``sinh`` (built
   on exp) to ``select(x != x, x, sinh(x))``. Opt-out:
   ``SPORAX_CPU_EXP_NAN=off``. Why: where XLA:CPU can see at compile time that exp's input is NaN (a constant
   NaN, or ``x + nan``), its vectorised exp returns whatever memory held (jaxlib 0.10.2: ``jit(lambda x:
   jnp.exp(x + nan))`` gave -4.3e-32, 4.6e-41); MindSpore gives NaN. mindflow's float16 attention adds
   ``zeros_like(scores) * Tensor(-1e10, fp16)`` (0 * -inf: a NaN constant) and its GRAPH-mode softmax gave
   finite values. ``max`` keeps XLA's softmax in one YNNPACK fusion (a NaN ``select`` split it in three,
   1.5x slower).

Example:
    >>> import sporax
    >>> from sporax.core import process_setup
    >>> process_setup.apply()  # already applied on import: does nothing
    >>> import jax
    >>> jax.config.jax_enable_x64
    True
"""
import atexit
import ctypes
import ctypes.util
import gc
import os
import platform
import sys
import warnings

import jax
import numpy as np
from jax import lax
from jax.experimental.compilation_cache import compilation_cache
from jax.interpreters import mlir
from jaxlib import version as jaxlib_version

from sporax.core import jax_private

_OFF = ("off", "0", "false", "no")


def _switched_off(variable):
    return os.environ.get(variable, "").strip().lower() in _OFF


# --- 1. XLA:CPU flags ---------------------------------------------------------------------------

XLA_CPU_DEFAULTS = {"xla_cpu_experimental_ynn_fusion_type": "individual_dot,reduce"}
_MEASURED_JAXLIB = ((0, 10),)  # (major, minor) releases the options were measured on


def _jaxlib_release():
    return tuple(int(part) for part in jaxlib_version.__version__.split(".")[:2] if part.isdigit())


def configure_xla_cpu_flags():
    """Append sporax's XLA:CPU defaults to ``XLA_FLAGS`` where the user set no value of their own."""
    if _switched_off("SPORAX_XLA_CPU_FLAGS") or _jaxlib_release() not in _MEASURED_JAXLIB:
        return
    flags = os.environ.get("XLA_FLAGS", "")
    added = [f"--{name}={value}" for name, value in XLA_CPU_DEFAULTS.items() if f"--{name}" not in flags]
    if added:
        os.environ["XLA_FLAGS"] = " ".join(filter(None, [flags] + added))


def add_xla_flag(flag):
    """Append ``flag`` (``--name=value``) to ``XLA_FLAGS`` unless its name is there; for backends started later."""
    flags = os.environ.get("XLA_FLAGS", "")
    if flag.split("=")[0] not in flags:
        os.environ["XLA_FLAGS"] = (flags + " " + flag).strip()


# --- 2. glibc malloc options --------------------------------------------------------------------

# mallopt parameter numbers from glibc's <malloc.h>.
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_MAX, M_ARENA_MAX = -1, -2, -4, -8
# One arena: a thread other than the main one (XLA's thunk workers, oneDNN's OpenMP team) otherwise
# mallocs from an arena of its own, whose heaps are at most 64 MiB; a larger block there is mmap'd
# whatever M_MMAP_MAX says, and unmapped again on free.
MALLOC_OPTIONS = ((M_MMAP_MAX, 0), (M_TRIM_THRESHOLD, 2**31 - 1), (M_TOP_PAD, 256 * 2**20), (M_ARENA_MAX, 1))
_USER_MALLOC_VARIABLES = ("MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                          "MALLOC_TOP_PAD_", "MALLOC_ARENA_MAX", "LD_PRELOAD")


def _user_tunes_malloc():
    if "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        return True
    # LD_PRELOAD usually brings another allocator (jemalloc, tcmalloc): its settings are the user's.
    return any(os.environ.get(name) for name in _USER_MALLOC_VARIABLES)


def glibc():
    """The process's C library as a ctypes handle when it is glibc on Linux, else None."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def configure_malloc():
    """Set sporax's malloc options where glibc is the allocator and the user set none; whether it did."""
    if _switched_off("SPORAX_HOST_MALLOC") or _user_tunes_malloc():
        return False
    libc = glibc()
    if libc is None:
        return False
    return all(libc.mallopt(ctypes.c_int(parameter), ctypes.c_int(value)) == 1
               for parameter, value in MALLOC_OPTIONS)


# --- 4. the persistent compilation cache --------------------------------------------------------

_MIN_COMPILE_OPTION = "jax_persistent_cache_min_compile_time_secs"
MIN_COMPILE_SECONDS = 0.25
_JAX_MIN_COMPILE_SECONDS = 1.0  # JAX's own default: a value other than it was chosen by the user


def default_cache_folder():
    """The folder the compilation cache uses when nothing chooses another (``None``: switched off)."""
    chosen = os.environ.get("SPORAX_COMPILATION_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in _OFF + ("",) else os.path.expanduser(chosen)
    return home_cache_folder()


def home_cache_folder():
    """``$XDG_CACHE_HOME/sporax/jax-cache``, else ``~/.cache/sporax/jax-cache``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sporax", "jax-cache")


def configure_compile_cache():
    """Switch the cache on in ``default_cache_folder()`` unless the user configured JAX's own."""
    if "SPORAX_COMPILATION_CACHE_DIR" not in os.environ and jax.config.jax_compilation_cache_dir:
        return
    if _MIN_COMPILE_OPTION.upper() not in os.environ and \
            getattr(jax.config, _MIN_COMPILE_OPTION) == _JAX_MIN_COMPILE_SECONDS:
        jax.config.update(_MIN_COMPILE_OPTION, MIN_COMPILE_SECONDS)
    use_compile_cache(default_cache_folder())


def use_compile_cache(folder):
    """Cache compiled programs in ``folder`` from now on (``None``: stop caching)."""
    if folder == jax.config.jax_compilation_cache_dir and jax.config.jax_enable_compilation_cache == bool(folder):
        return
    jax.config.update("jax_compilation_cache_dir", folder)
    jax.config.update("jax_enable_compilation_cache", bool(folder))
    # JAX opens its cache once, at the first compilation: make it reopen with the new folder.
    compilation_cache.reset_cache()


def compile_cache_folder():
    """The folder compiled programs are cached in now (``None``: not cached)."""
    return jax.config.jax_compilation_cache_dir if jax.config.jax_enable_compilation_cache else None


# --- 6. a first step without the full compile ----------------------------------------------------

# XLA options of the quick compile: they only leave out LLVM optimisation passes, which do not
# reassociate float arithmetic, so the quick and the full program compute bit-identical values
# (tests/state/test_background_compile.py). XLA:CPU's ``xla_cpu_opt_preset=CPU_OPT_PRESET_FAST_COMPILE``
# would save a little more (ResNet-18 b32 train step compile CPU 1.30-1.44 s against 1.54-1.65 s,
# jaxlib 0.10.2) but changes results in the last bit (a small ResNet's weights after a few steps).
QUICK_COMPILER_OPTIONS = {"xla_llvm_disable_expensive_passes": True}


def background_compile():
    """Whether large programs start on a quick compile while the full one compiles in the background."""
    return os.environ.get("SPORAX_BACKGROUND_COMPILE", "").strip().lower() in ("on", "1", "true", "yes")


# --- 8. import-time objects out of the garbage collector's passes -------------------------------

def freeze_import_objects():
    """``gc.freeze()`` unless ``SPORAX_GC_FREEZE`` switches it off; whether it froze."""
    if _switched_off("SPORAX_GC_FREEZE"):
        return False
    gc.freeze()
    return True


# --- 10. float32 product precision --------------------------------------------------------------

# jax_default_matmul_precision for each (matmul_allow_tf32, conv_allow_tf32). The value is the precision of
# every product that names none; convolutions name theirs. JAX keys its jit caches on the value, so each of
# the four settings has a spelling of its own: a program traced under one setting is never reused under
# another ("highest" and "float32" are the same precision, as are None and "default").
PRODUCT_PRECISIONS = {(False, True): "highest", (False, False): "float32", (True, True): None, (True, False): "default"}


product_precision = None  # the value set last: sporax's program caches key on it (their jaxprs hold precisions)


def set_product_precision(matmul_allow_tf32, conv_allow_tf32):
    """Make products that name no precision full float32 unless ``matmul_allow_tf32`` (see item 10)."""
    global product_precision
    product_precision = PRODUCT_PRECISIONS[(bool(matmul_allow_tf32), bool(conv_allow_tf32))]
    jax.config.update("jax_default_matmul_precision", product_precision)


# --- 12. NaN kept through exp on XLA:CPU -----------------------------------------------------------

def _at_least_input(x, y):
    return lax.max(y, x)  # y = f(x) >= x for every real x: y; NaN for NaN (XLA's max propagates it)


def _nan_as_input(x, y):
    return lax.select(x != x, x, y)


# f(x) >= x keeps exp, exp2 and cosh in YNNPACK's fusions; sinh (below x for x < 0) selects
_NAN_GUARDS = ((lax.exp_p, _at_least_input), (lax.exp2_p, _at_least_input), (lax.cosh_p, _at_least_input),
               (lax.sinh_p, _nan_as_input))


def keep_nan_through_exp():
    """Lower exp, exp2, cosh and sinh of real values on the CPU with a guard that keeps NaN (see item 12)."""
    if _switched_off("SPORAX_CPU_EXP_NAN"):
        return
    for primitive, guard in _NAN_GUARDS:
        generic, guarded = jax_private.generic_lowering(primitive), mlir.lower_fun(guard, multiple_results=False)

        def rule(ctx, x, *, _generic=generic, _guarded=guarded, **params):
            results = _generic(ctx, x, **params)
            aval = ctx.avals_in[0]
            if not np.issubdtype(aval.dtype, np.floating):
                return results
            return _guarded(ctx.replace(avals_in=[aval, aval]), x, results[0])

        mlir.register_lowering(primitive, rule, platform="cpu")


# --- applied on import --------------------------------------------------------------------------

_applied = []


def apply():
    """Make the import-time settings (1 to 5, 10 and 12 of the module's contract; 6 is read when it applies, 8 runs at the end of ``import sporax``), once per process."""
    if _applied:
        return
    _applied.append(True)
    configure_xla_cpu_flags()  # before anything creates JAX's CPU client
    configure_malloc()
    jax.config.update("jax_enable_x64", True)
    configure_compile_cache()
    warnings.filterwarnings("ignore", message="Some donated buffers were not usable")
    if jax.config.jax_default_matmul_precision is None:  # else the user's JAX_DEFAULT_MATMUL_PRECISION: kept
        set_product_precision(matmul_allow_tf32=False, conv_allow_tf32=True)
    keep_nan_through_exp()


# --- 9. running programs finish before the process exits -----------------------------------------

_finish_registered = []


def finish_programs_at_exit(stop):
    """Register (once) the exit handler: wait for the programs still computing live arrays, then call ``stop``
    (the kernels' library stops: a call still to come does nothing, as no one reads its result)."""
    if not _finish_registered:
        _finish_registered.append(True)
        atexit.register(_finish_programs, stop)


def _finish_programs(stop):
    try:
        for array in jax.live_arrays():
            array.block_until_ready()
    except Exception:  # noqa: BLE001 - at exit an array may be deleted or its backend gone: nothing to wait for
        pass
    stop()


# --- settings made when the user asks for them --------------------------------------------------

OPENMP_SETTINGS = {"OMP_WAIT_POLICY": "active", "GOMP_SPINCOUNT": "200000"}


def set_openmp_defaults():
    """``OPENMP_SETTINGS`` where the user set none: call before libgomp loads (oneDNN's kernels)."""
    for name, value in OPENMP_SETTINGS.items():
        os.environ.setdefault(name, value)


def set_default_device(device):
    """Put new arrays on ``device`` (``None``: JAX's first device)."""
    jax.config.update("jax_default_device", device)


def synchronous_cpu_dispatch():
    """Run CPU programs inline: each op completes before its call returns."""
    jax.config.update("jax_cpu_enable_async_dispatch", False)


def use_gloo_cpu_collectives():
    """CPU collectives across processes through gloo (before ``jax.distributed.initialize``)."""
    jax.config.update("jax_cpu_collectives_implementation", "gloo")


def block_cuda_launches():
    """``CUDA_LAUNCH_BLOCKING=1`` for GPU backends started from now on."""
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"


RUN_SCRIPT_VARIABLE = "SPORAX_RUN_SCRIPT"


def export_run_script(path):
    """Name the script ``sporax run`` runs to the processes it starts (``sporax.compat.mp_main`` reads it)."""
    os.environ[RUN_SCRIPT_VARIABLE] = path


def set_environment_defaults(variables):
    """Set each of ``variables`` the environment does not set yet (for clients and processes started later)."""
    os.environ.update({name: value for name, value in variables.items() if name not in os.environ})


def mindspore_numpy_printing():
    """NumPy scalars' repr as NumPy 1.x writes it (item 11), unless ``SPORAX_NUMPY_PRINT=native``."""
    if os.environ.get("SPORAX_NUMPY_PRINT", "").lower() == "native":
        return
    if int(np.__version__.split(".")[0]) >= 2:
        np.set_printoptions(legacy="1.25")


def raise_recursion_limit(limit):
    """Python's recursion limit raised to ``limit`` (never lowered)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), limit))

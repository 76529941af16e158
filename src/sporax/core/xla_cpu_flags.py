"""XLA:CPU options sporax sets for speed, chosen by measurement, each one overridable.

Contract: ``configure()`` (run on import of sporax, before JAX creates its CPU client) appends
to ``XLA_FLAGS`` each option of ``DEFAULTS`` that the user's ``XLA_FLAGS`` does not already set,
when the installed jaxlib is one the option was measured on (an option jaxlib does not know
aborts the process, so none is set blindly). ``SPORAX_XLA_CPU_FLAGS=off`` sets none. The
options only concern XLA:CPU: GPU and TPU compilation ignore them. If JAX's CPU client already
exists when sporax is imported, the options take effect in the next process only.

The option (``benchmarks/xla_flags.py``, jaxlib 0.10.2, 2-core AMD EPYC):
``--xla_cpu_experimental_ynn_fusion_type=individual_dot,reduce`` keeps YNNPACK for matrix
products and reductions and gives convolutions back to XLA's Eigen convolution: hand-written
LeNet5 b256 step 1.17x (CPU time) / 1.12x (wall), ResNet-18 b32 1.01x / 1.20x. YNNPACK's
convolution weight gradients were the largest items of the LeNet5 step.
"""
import os

DEFAULTS = {"xla_cpu_experimental_ynn_fusion_type": "individual_dot,reduce"}
_MEASURED_JAXLIB = ((0, 10),)  # (major, minor) releases the options were measured on


def _jaxlib_release():
    try:
        from jaxlib import version
    except ImportError:
        return None
    return tuple(int(part) for part in version.__version__.split(".")[:2] if part.isdigit())


def configure():
    """Append sporax's XLA:CPU defaults to ``XLA_FLAGS`` where the user set no value of their own."""
    if os.environ.get("SPORAX_XLA_CPU_FLAGS", "").strip().lower() in ("off", "0", "false", "no"):
        return
    if _jaxlib_release() not in _MEASURED_JAXLIB:
        return
    flags = os.environ.get("XLA_FLAGS", "")
    added = [f"--{name}={value}" for name, value in DEFAULTS.items() if f"--{name}" not in flags]
    if added:
        os.environ["XLA_FLAGS"] = " ".join(filter(None, [flags] + added))

"""The persistent compilation cache: a second run of a script reuses the first run's compiled steps.

Contract: on import of sporax, JAX's persistent compilation cache is switched on in one
folder, chosen in this order:

1. ``SPORAX_COMPILATION_CACHE_DIR`` (``off``, ``0``, ``false`` or an empty value switch it off);
2. a folder the user already gave JAX (``JAX_COMPILATION_CACHE_DIR`` or ``jax.config``): kept;
3. ``$XDG_CACHE_HOME/sporax/jax-cache``, else ``~/.cache/sporax/jax-cache``.

``set_context(enable_compile_cache=False)`` switches it off and ``compile_cache_path=...``
moves it, as MindSpore's keys of those names do for its graph cache. The folder is created
when JAX first stores a program: only programs whose compilation took at least
``jax_persistent_cache_min_compile_time_secs``, which sporax lowers from JAX's 1 s to
``MIN_COMPILE_SECONDS`` unless the user set it (``JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS``
or ``jax.config``): a small train step (LeNet5 on a quiet 2-core machine: ~0.8 s) would fall
below 1 s and recompile on every run, while an eager op's compile stays below 0.25 s.

Correctness: JAX keys an entry on the serialized program, the compile options, the XLA flags,
the jaxlib version and the device kind, so an entry is only ever reused for the very program
it was compiled from; a changed model, shape, dtype or JAX version compiles afresh.
"""
import os

_OFF = ("", "0", "off", "false", "no")
_MIN_COMPILE_OPTION = "jax_persistent_cache_min_compile_time_secs"
MIN_COMPILE_SECONDS = 0.25
_JAX_MIN_COMPILE_SECONDS = 1.0  # JAX's own default: a value other than it was chosen by the user


def default_folder():
    """The folder the cache uses when nothing chooses another (``None``: switched off)."""
    chosen = os.environ.get("SPORAX_COMPILATION_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in _OFF else os.path.expanduser(chosen)
    return home_folder()


def home_folder():
    """``$XDG_CACHE_HOME/sporax/jax-cache``, else ``~/.cache/sporax/jax-cache``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sporax", "jax-cache")


def configure():
    """Switch the cache on in ``default_folder()`` unless the user configured JAX's own."""
    import jax

    if "SPORAX_COMPILATION_CACHE_DIR" not in os.environ and jax.config.jax_compilation_cache_dir:
        return
    if _MIN_COMPILE_OPTION.upper() not in os.environ and \
            getattr(jax.config, _MIN_COMPILE_OPTION) == _JAX_MIN_COMPILE_SECONDS:
        jax.config.update(_MIN_COMPILE_OPTION, MIN_COMPILE_SECONDS)
    use(default_folder())


def use(folder):
    """Cache compiled programs in ``folder`` from now on (``None``: stop caching)."""
    import jax
    from jax.experimental.compilation_cache import compilation_cache

    if folder == jax.config.jax_compilation_cache_dir and jax.config.jax_enable_compilation_cache == bool(folder):
        return
    jax.config.update("jax_compilation_cache_dir", folder)
    jax.config.update("jax_enable_compilation_cache", bool(folder))
    # JAX opens its cache once, at the first compilation: make it reopen with the new folder.
    compilation_cache.reset_cache()


def folder():
    """The folder compiled programs are cached in now (``None``: not cached)."""
    import jax

    return jax.config.jax_compilation_cache_dir if jax.config.jax_enable_compilation_cache else None

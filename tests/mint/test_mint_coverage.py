"""Every public ``mint`` function is generated from the op table (an entry's own face or a ``spelling`` row), or
is a listed adapter that calls entries only (``sporax.mint.spellings.ADAPTERS``, each with its reason)."""
import importlib
import inspect

from sporax.mint.spellings import ADAPTERS, NAMESPACES
from sporax.ops.op_table import entries


def _functions():
    for namespace in NAMESPACES:
        module = importlib.import_module(f"sporax.{namespace}")
        for name, value in vars(module).items():
            if not name.startswith("_") and inspect.isfunction(value):
                yield f"{namespace}.{name}", value


def _is_face(function):
    return getattr(function, "entry", None) is not None or any(function is entry.function for entry in entries())


def test_every_mint_function_is_a_face_or_a_listed_adapter():
    unlisted = sorted(name for name, function in _functions() if not _is_face(function) and name not in ADAPTERS)
    assert unlisted == [], (f"mint functions neither generated from the op table nor listed in "
                            f"sporax/mint/spellings.py ADAPTERS: {unlisted}")


def test_the_adapter_list_stays_true():
    functions = dict(_functions())
    stale = sorted(name for name in ADAPTERS if name not in functions or _is_face(functions[name]))
    assert stale == [], f"listed as adapters but now faces of the table (or gone): {stale}"


def test_adapters_compute_nothing_themselves():
    """A mint adapter calls entries: its module imports neither jax nor mindspore.numpy (``mint.einsum`` is
    ``ops.einsum``, which ``ops/table_coverage.py`` accounts for)."""
    modules = {inspect.getmodule(function) for name, function in _functions() if name in ADAPTERS}
    modules = {module for module in modules if module.__name__.startswith("sporax.mint")}
    assert modules
    for module in modules:
        source = inspect.getsource(module)
        assert "import jax" not in source and "sporax.numpy" not in source and "jnp." not in source, module.__name__

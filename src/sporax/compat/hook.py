"""The import hook that serves MindSpore's module paths from sporax (a ``sys.meta_path`` finder).

``import mindspore.nn as nn`` gives an alias module: a thin module object named ``mindspore.nn``
whose attributes are the very same objects as those of the canonical module ``sporax.nn`` (looked
up on first access, then kept in the alias's own namespace so later lookups cost what any module
attribute costs). Alias modules are packages, so deeper rows of the table import beneath them.
The canonical modules are never modified: Python's import system stores each imported child on
its parent, and the parent here is always an alias, never a sporax module.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import pathlib
import re
import sys
import types

from sporax.compat import class_paths
from sporax.compat.table import ALIASES, NAMES, PRIVATE_HOMES
from sporax.core.tensor import Tensor

ROOT = "mindspore"
SPORAX = "sporax"


def table_key(name):
    """The ALIASES key of a module path: ``sporax.common.dtype`` is looked up as ``mindspore.common.dtype``."""
    if name == SPORAX or name.startswith(SPORAX + "."):
        return ROOT + name[len(SPORAX):]
    return name


def _not_provided(name, reason=None):
    if reason is None:
        reason = ("; the MindSpore module paths it serves are the keys of "
                  "sporax.compat.table.ALIASES")
    return ModuleNotFoundError(f"No module named '{name}': sporax does not provide it yet{reason}",
                               name=name)


def _public_names(module):
    """The names ``from module import *`` takes: ``__all__`` or every public non-module name."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)]


_MISSING = object()


def _private_name(alias_name, name):
    """A name MindSpore defines privately at this path (``_Loss``, ``_Conv``), from the sporax
    module that holds it (``PRIVATE_HOMES``); ``_MISSING`` when there is none."""
    home = PRIVATE_HOMES.get(table_key(alias_name))
    if home is None:
        return _MISSING
    return getattr(importlib.import_module(home), name, _MISSING)


def _named_row(alias_name, name):
    """The object a ``NAMES`` row serves at this path (``math_func.amax_ext`` -> ``mint.amax``);
    ``_MISSING`` when the path has no row for the name."""
    target = NAMES.get(table_key(alias_name), {}).get(name)
    if target is None:
        return _MISSING
    module_name, attribute = target.rsplit(".", 1)
    return getattr(importlib.import_module(module_name), attribute)


def _shadowing_object(canonical, name):
    """The canonical module's non-module object called ``name`` (a function that MindSpore binds over
    its same-named submodule), or None."""
    value = canonical.__dict__.get(name)
    if value is None or isinstance(value, types.ModuleType):
        return None
    return value


class AliasModule(types.ModuleType):
    """A MindSpore module path served by a canonical sporax module; attributes are its objects."""

    def __getattr__(self, name):
        # Only reached when the name is not yet in this alias's namespace.
        canonical = self.__dict__["_sporax_canonical"]
        if name.startswith("__") and name.endswith("__"):
            # The import system's own attributes (__spec__, __path__ ...) must never come
            # from the canonical module; only these two describe its contents.
            if name == "__all__":
                return _public_names(canonical)
            if name == "__version__":
                if self.__name__ in (ROOT, f"{ROOT}.version"):
                    # Libraries compare it against MindSpore releases, never against sporax's own.
                    return importlib.import_module(SPORAX).MINDSPORE_VERSION
                return getattr(canonical, name)
            raise AttributeError(name)
        child = f"{self.__name__}.{name}"
        shadow = _shadowing_object(canonical, name) if table_key(child) in ALIASES else None
        if shadow is not None:
            # MindSpore's package binds the function over its same-named module
            # (`mindspore.nn.optim.thor`, `mindspore.parallel.shard`): the name gives the function.
            value = shadow
        elif table_key(child) in ALIASES:
            # A deeper table row (`mindspore.nn.wrap`, `mindspore.context`) is always its alias
            # module, whatever the canonical module holds under that name.
            try:
                value = importlib.import_module(child)
            except ImportError as error:
                raise AttributeError(str(error)) from error
        else:
            # An explicit row wins over the canonical module's own name.
            value = _named_row(self.__name__, name)
            if value is _MISSING:
                try:
                    value = getattr(canonical, name)
                except AttributeError:
                    value = _private_name(self.__name__, name)
            if value is _MISSING:
                raise AttributeError(
                    f"module '{self.__name__}' has no attribute '{name}': sporax does not "
                    f"provide {child} yet (it serves {self.__name__} from "
                    f"{canonical.__name__})") from None
        # Keep it: later lookups are plain dictionary hits.
        self.__dict__[name] = value
        return value

    def __setattr__(self, name, value):
        # The import system stores each imported child module on its parent; where the canonical
        # module holds a function of that name, the function stays (as in MindSpore's namespace).
        if isinstance(value, types.ModuleType) and "_sporax_canonical" in self.__dict__:
            value = _shadowing_object(self.__dict__["_sporax_canonical"], name) or value
        super().__setattr__(name, value)

    def __dir__(self):
        names = set(self.__dict__) | set(dir(self.__dict__["_sporax_canonical"]))
        names.discard("_sporax_canonical")
        names.update(NAMES.get(table_key(self.__name__), ()))
        prefix = table_key(self.__name__) + "."
        names.update(key[len(prefix):] for key in ALIASES
                     if key.startswith(prefix) and "." not in key[len(prefix):])
        return sorted(names)

    def __repr__(self):
        return (f"<module '{self.__name__}' (sporax alias of "
                f"'{self.__dict__['_sporax_canonical'].__name__}')>")


class MindSporeDistribution(importlib.metadata.Distribution):
    """The ``mindspore`` distribution that package metadata reports while the hook serves the imports.

    Libraries ask ``importlib.metadata.version("mindspore")`` whether MindSpore is installed and which
    release it is (mindone's ``is_mindspore_available``, transformers-style import checks); under the
    hook the answer is the MindSpore release whose behaviour sporax follows, the same as
    ``mindspore.__version__``. Its files are sporax's own.
    """

    def read_text(self, filename):
        if filename == "METADATA":
            version = importlib.import_module(SPORAX).MINDSPORE_VERSION
            return (f"Metadata-Version: 2.1\nName: {ROOT}\nVersion: {version}\n"
                    f"Summary: MindSpore's module paths, served by sporax (sporax.compat)\n")
        return None

    def locate_file(self, path):
        return pathlib.Path(importlib.import_module(SPORAX).__file__).parent / path


class MindSporeAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads ``mindspore`` and ``mindspore.*`` from the alias table; answers package
    metadata queries for ``mindspore`` (``find_distributions``)."""

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        name = context.name
        if name is None or re.sub(r"[-_.]+", "-", name).lower() == ROOT:
            return iter((MindSporeDistribution(),))
        return iter(())

    def find_spec(self, fullname, path=None, target=None):
        if fullname != ROOT and not fullname.startswith(ROOT + "."):
            return None
        canonical_name = ALIASES.get(fullname)
        if canonical_name is None:
            raise _not_provided(fullname)
        # A package (empty search path) so that deeper rows import beneath it.
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        canonical_name = ALIASES[table_key(spec.name)]
        try:
            canonical = importlib.import_module(canonical_name)
        except ModuleNotFoundError as error:
            # Only translate "the canonical module is missing"; a missing module inside a
            # canonical module's own imports is a bug there and keeps its own message.
            if error.name is None or not (canonical_name == error.name
                                          or canonical_name.startswith(error.name + ".")):
                raise
            raise _not_provided(spec.name, f" (its sporax module '{canonical_name}' is not "
                                           f"available: {error})") from error
        if canonical_name == "sporax.dataset" or canonical_name.startswith("sporax.dataset."):
            class_paths.name_classes()  # type(dataset) prints MindSpore's path, as Tensor's does
        module = AliasModule(spec.name, canonical.__doc__)
        module.__dict__["_sporax_canonical"] = canonical
        # The canonical module's file: tracebacks and "cannot import name 'X' from
        # 'mindspore' (.../sporax/__init__.py)" then show where the names come from.
        if getattr(canonical, "__file__", None):
            module.__file__ = canonical.__file__
        return module

    def exec_module(self, module):
        # Everything is looked up lazily from the canonical module.
        return None


class SporaxLegacyFinder(MindSporeAliasFinder):
    """Serves MindSpore's legacy module paths under ``sporax`` too (``sporax.common.dtype``,
    ``sporax.train.serialization``), from the same table, for code and tools that spell
    MindSpore paths with the ``sporax`` package name. It sits last on ``sys.meta_path``, so
    sporax's real modules always win."""

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        # Installed without the hook: no `mindspore` distribution exists.
        return iter(())

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(SPORAX + "."):
            return None
        canonical_name = ALIASES.get(table_key(fullname))
        if canonical_name is None or canonical_name == fullname:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)


_FINDER = MindSporeAliasFinder()
_LEGACY_FINDER = SporaxLegacyFinder()


def install_legacy_paths():
    """Put the ``sporax.<legacy path>`` finder last on ``sys.meta_path``; idempotent."""
    if not any(finder is _LEGACY_FINDER for finder in sys.meta_path):
        sys.meta_path.append(_LEGACY_FINDER)


def is_installed():
    """Return True when the MindSpore alias finder is on ``sys.meta_path``."""
    return any(finder is _FINDER for finder in sys.meta_path)


def install():
    """Serve ``import mindspore...`` from sporax in this process; idempotent.

    The finder goes first on ``sys.meta_path`` so that it also shadows a real MindSpore
    installed in the same environment. Raises RuntimeError if a real ``mindspore`` has
    already been imported, because objects from two frameworks must not mix.
    """
    loaded = sys.modules.get(ROOT)
    if loaded is not None and not isinstance(loaded, AliasModule):
        raise RuntimeError(
            "sporax.compat.install(): a real 'mindspore' module is already imported "
            f"({getattr(loaded, '__file__', loaded)!r}); install the sporax aliases before "
            "anything imports mindspore, or run the script with `sporax run`.")
    if not is_installed():
        sys.meta_path.insert(0, _FINDER)
    _name_tensor_class(ROOT + ".common.tensor")
    return _FINDER


def _name_tensor_class(module):
    """Give the Tensor class the module path a script sees (``type(x)`` prints it, as MindSpore's
    ``<class 'mindspore.common.tensor.Tensor'>``); pickles do not depend on it (``Tensor.__reduce_ex__``)."""
    Tensor.__module__ = module


def uninstall():
    """Remove the finder and every ``mindspore`` alias module from ``sys.modules``."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if finder is not _FINDER]
    _name_tensor_class("sporax.core.tensor")
    class_paths.restore_classes()
    for name in [name for name, module in sys.modules.items()
                 if (name == ROOT or name.startswith(ROOT + ".")) and isinstance(module, AliasModule)]:
        del sys.modules[name]

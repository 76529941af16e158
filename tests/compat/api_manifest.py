"""The public API manifest: every MindSpore module path sporax serves, every public name under it,
its kind, its signature and which names are the same object.

The op-table redesign must not change what a user sees. ``record()`` writes the manifest of the
tree as it stands (``python3 tests/compat/api_manifest.py``); ``test_api_manifest.py`` compares
the current tree with the recorded file, so a move that drops, renames or re-signs a public name,
or splits one object into two, fails with the names it changed.
"""
import importlib
import inspect
import json
import pathlib
import re
import sys
import types

MANIFEST = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "api_manifest.json"

# sporax namespaces a user imports directly, besides the MindSpore paths of the compat table.
EXTRA_MODULES = ("sporax.mint", "sporax.mint.nn", "sporax.mint.nn.functional", "sporax.mint.optim",
                 "sporax.numpy", "sporax.scipy")
# Classes whose methods are public API in their own right.
CLASSES = ("sporax.Tensor", "sporax.Parameter", "sporax.nn.Cell")


def _kind(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "value:" + type(value).__name__


def _annotation(annotation):
    if annotation is inspect.Signature.empty or isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__qualname__
    return re.sub(r"(?:\w+\.)+(\w+)", r"\1", str(annotation))


def _signature(value):
    if isinstance(value, types.ModuleType) or not callable(value):
        return None
    try:
        signature = inspect.signature(value)
        # An annotation prints with its class's module, which the compat hook renames (``mindspore.common.tensor``
        # once it is installed): keep the class name alone.
        signature = signature.replace(parameters=[parameter.replace(annotation=_annotation(parameter.annotation))
                                                  for parameter in signature.parameters.values()],
                                      return_annotation=_annotation(signature.return_annotation))
        # Default values print with their address (``<function f at 0x7f...>``): drop it.
        return re.sub(r" at 0x[0-9a-f]+", "", str(signature))
    except (TypeError, ValueError):
        return None


def _public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name, value in vars(module).items()
                 if not name.startswith("_") and not isinstance(value, types.ModuleType)]
    return sorted(set(names))


def collect():
    """The manifest of the importable tree: ``{"modules": {path: {name: [kind, signature]}},
    "same": {name: canonical name}}`` where ``same`` maps every public name to the first
    (sorted) name bound to the very same class or function."""
    from sporax.compat.table import ALIASES
    from sporax.state import deferred

    # An optimizer update an earlier step held back sets ``core.parameter.deferred_update`` (a slot, not API)
    # until it is applied: apply it, so the manifest does not depend on what ran before it.
    deferred.flush()
    modules, owners = {}, {}
    paths = sorted(set(ALIASES.values()) | set(EXTRA_MODULES))
    for path in paths:
        module = importlib.import_module(path)
        entries = {}
        for name in _public_names(module):
            value = getattr(module, name, None)
            entries[name] = [_kind(value), _signature(value)]
            if inspect.isclass(value) or inspect.isfunction(value):
                owners.setdefault(id(value), []).append(f"{path}.{name}")
        modules[path] = entries
    for dotted in CLASSES:
        owner_path, _, class_name = dotted.rpartition(".")
        cls = getattr(importlib.import_module(owner_path), class_name)
        modules[dotted] = {name: [_kind(getattr(cls, name, None)), _signature(getattr(cls, name, None))]
                           for name in sorted(dir(cls)) if not name.startswith("_")}
    same = {}
    for names in owners.values():
        names.sort()
        for name in names[1:]:
            same[name] = names[0]
    return {"modules": modules, "same": same}


def record():
    MANIFEST.write_text(json.dumps(collect(), indent=1, sort_keys=True) + "\n")


def differences(recorded, current):
    """Readable lines for each public name dropped, added, changed or split from its twin."""
    lines = []
    for path, entries in recorded["modules"].items():
        now = current["modules"].get(path)
        if now is None:
            lines.append(f"module {path} is gone")
            continue
        for name, entry in entries.items():
            if name not in now:
                lines.append(f"{path}.{name} is gone")
            elif list(now[name]) != list(entry):
                lines.append(f"{path}.{name} changed: {entry} -> {now[name]}")
    canonical = current["same"]
    for name, twin in recorded["same"].items():
        if canonical.get(name, name) != canonical.get(twin, twin):
            lines.append(f"{name} is no longer the same object as {twin}")
    return lines


if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "src"))
    record()
    print(f"wrote {MANIFEST}")

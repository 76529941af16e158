"""Buffers and ``state_dict``/``load_state_dict`` of a Cell (MindSpore 2.x's PyTorch-style members).

A buffer is a Tensor that belongs to the Cell's state without being a Parameter (no gradient,
not in ``get_parameters``); persistent buffers are saved by ``state_dict``. ``Cell`` inherits
these methods from ``CellStateMixin``.
"""
import collections
from collections import OrderedDict

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` could not match: keys the Cell has but the dict lacks, and the reverse."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


class CellStateMixin:
    """``register_buffer``, ``buffers``, ``named_buffers``, ``state_dict``, ``load_state_dict``."""

    def register_buffer(self, name, tensor, persistent=True):
        """Add a Tensor ``tensor`` (or None) to the Cell's state under ``name``.

        Args:
            name (str): the attribute name; no '.'.
            tensor (Tensor): the value, or None.
            persistent (bool): whether ``state_dict`` includes it. Default: True.
        """
        if not isinstance(name, str):
            raise TypeError(f"For 'register_buffer', the buffer name should be a string, but got {type(name).__name__}.")
        if "." in name:
            raise KeyError(f"For 'register_buffer', the buffer name can't contain \".\", but got {name!r}.")
        if not name:
            raise KeyError("For 'register_buffer', the buffer name can't be empty string \"\".")
        if tensor is not None and (not isinstance(tensor, Tensor) or isinstance(tensor, Parameter)):
            raise TypeError(f"For 'register_buffer', the 'tensor' must be a Tensor (not a Parameter) or None, but got "
                            f"{type(tensor).__name__}.")
        if name in self._params or name in self._cells or (name in self.__dict__ and name not in self._buffers):
            raise KeyError(f"For 'register_buffer', attribute '{name}' already exists in {type(self).__name__}.")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def get_buffer(self, target):
        """The buffer at dotted path ``target`` (``"sub_net.buffer_1"``); AttributeError when absent."""
        owner = self
        *path, name = target.split(".")
        for part in path:
            child = owner._cells.get(part) if hasattr(owner, "_cells") else None
            if child is None:
                raise AttributeError(f"{type(owner).__name__} has no attribute `{part}`")
            owner = child
        if name not in owner._buffers:
            raise AttributeError(f"{type(owner).__name__} has no attribute `{name}`")
        return owner._buffers[name]

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield ``(path, buffer)`` for this Cell's buffers (and its children's when ``recurse``)."""
        owners = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen = set()
        for owner_name, owner in owners:
            for name, buffer in owner._buffers.items():
                if buffer is None or (remove_duplicate and id(buffer) in seen):
                    continue
                seen.add(id(buffer))
                yield (f"{owner_name}.{name}" if owner_name else name), buffer

    def buffers(self, recurse=True):
        """Yield every buffer."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict path -> Parameter or persistent buffer, cell by cell (own entries, then children)."""
        result = OrderedDict() if destination is None else destination
        seen = set()
        for owner_name, owner in self.cells_and_names(name_prefix=prefix.rstrip(".")):
            base = f"{owner_name}." if owner_name else ""
            for name, parameter in owner._params.items():
                if parameter is not None and id(parameter) not in seen:
                    seen.add(id(parameter))
                    result[base + name] = parameter
            for name, buffer in owner._buffers.items():
                if buffer is not None and name not in owner._non_persistent_buffers:
                    result[base + name] = buffer
        return result

    def load_state_dict(self, state_dict, strict=True):
        """Copy values from ``state_dict`` (path -> Tensor) into the Parameters and buffers.

        Args:
            state_dict (Mapping): the values, keyed as ``state_dict()`` keys them.
            strict (bool): raise when keys are missing or unexpected. Default: True.

        Returns:
            a named tuple (missing_keys, unexpected_keys).
        """
        if not hasattr(state_dict, "items"):
            raise TypeError(f"For 'load_state_dict', the 'state_dict' must be a Mapping, but got "
                            f"{type(state_dict).__name__}.")
        own = self.state_dict()
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        if strict and (missing or unexpected):
            lines = []
            if unexpected:
                lines.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                lines.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(lines))
        owners = dict(self.cells_and_names())
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            value = value if isinstance(value, Tensor) else Tensor(value)
            if isinstance(target, Parameter):
                target.set_data(value)
            else:
                owner_name, _, name = key.rpartition(".")
                owners[owner_name]._buffers[name] = Tensor._wrap(value._value.astype(target._value.dtype))
        return _IncompatibleKeys(missing, unexpected)

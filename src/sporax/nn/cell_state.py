"""Buffers and ``state_dict``/``load_state_dict`` of a Cell (MindSpore 2.x's PyTorch-style members).

A buffer is a Tensor that belongs to the Cell's state without being a Parameter (no gradient,
not in ``get_parameters``); persistent buffers are saved by ``state_dict``. ``Cell`` inherits
these methods from ``CellStateMixin``.
"""
import collections
import collections.abc
import typing
import warnings
from collections import OrderedDict

from sporax.autodiff.tensor_hooks import HookHandle

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor

_EXTRA_STATE = "_extra_state"  # the key suffix MindSpore saves a Cell's extra state under


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` could not match: keys the Cell has but the dict lacks, and the reverse."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


class CellStateMixin:
    """``register_buffer``, ``buffers``, ``named_buffers``, ``state_dict``, ``load_state_dict`` and their hooks."""

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

    # --- state_dict and its hooks -------------------------------------------------------------
    T_destination = typing.TypeVar("T_destination", bound=typing.Dict[str, typing.Any])

    def _state_hook_table(self, name):
        table = self.__dict__.get(name)
        if table is None:
            table = self.__dict__[name] = OrderedDict()
        return table

    def _add_state_hook(self, api, table_name, hook):
        if not callable(hook):
            raise TypeError(f"For '{api}', the 'hook' must be a callable, but got {type(hook).__name__}.")
        table = self._state_hook_table(table_name)
        handle = HookHandle(table)
        table[handle.handle_id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook):
        """Call ``hook(cell, prefix, keep_vars)`` before ``state_dict`` collects this Cell's entries.

        Args:
            hook (Callable): the function; it may add Parameters or buffers to the Cell.

        Returns:
            a handle whose ``remove()`` takes the hook off.
        """
        return self._add_state_hook("register_state_dict_pre_hook", "_state_dict_pre_hooks", hook)

    def register_state_dict_post_hook(self, hook):
        """Call ``hook(cell, state_dict, prefix, local_metadata)`` after ``state_dict`` collected this
        Cell's entries and its children's; it edits ``state_dict`` in place and returns None.

        Returns:
            a handle whose ``remove()`` takes the hook off.
        """
        return self._add_state_hook("register_state_dict_post_hook", "_state_dict_post_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """Call ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` before ``load_state_dict`` copies this Cell's entries (it may edit them).

        Returns:
            a handle whose ``remove()`` takes the hook off.
        """
        return self._add_state_hook("register_load_state_dict_pre_hook", "_load_state_dict_pre_hooks", hook)

    def register_load_state_dict_post_hook(self, hook):
        """Call ``hook(cell, incompatible_keys)`` after ``load_state_dict`` loaded this Cell and its
        children; clearing ``incompatible_keys.missing_keys``/``unexpected_keys`` in place avoids the
        strict error. The hook must return None.

        Returns:
            a handle whose ``remove()`` takes the hook off.
        """
        return self._add_state_hook("register_load_state_dict_post_hook", "_load_state_dict_post_hooks", hook)

    def get_extra_state(self):
        """The extra (non-Tensor) state a subclass saves in ``state_dict`` under ``<prefix>_extra_state``.

        A Cell that keeps such state overrides this and ``set_extra_state``; the base one is never
        called by ``state_dict`` and raises when called directly.
        """
        raise RuntimeError(f"For '{type(self).__name__}', get_extra_state was called but the Cell does not "
                           "define it: override get_extra_state (and set_extra_state) to save extra state.")

    def set_extra_state(self, state):
        """Restore the state ``get_extra_state`` returned (called by ``load_state_dict``).

        Args:
            state (Any): the value stored under ``<prefix>_extra_state``.
        """
        raise RuntimeError(f"For '{type(self).__name__}', set_extra_state was called but the Cell does not "
                           "define it: override set_extra_state (and get_extra_state) to load extra state.")

    def _defines(self, method):
        return getattr(type(self), method) is not getattr(CellStateMixin, method)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, parameter in self._params.items():
            if parameter is not None:
                destination[prefix + name] = parameter
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers:
                destination[prefix + name] = buffer
        if self._defines("get_extra_state"):
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict path -> Parameter or persistent buffer, Cell by Cell (own entries, then each
        child's), with ``_extra_state`` entries of Cells that define ``get_extra_state``.

        Args:
            destination (dict): a dict to fill and return instead of a new one. Default: None.
            prefix (str): prepended to every key. Default: ''.
            keep_vars (bool): passed to the hooks (entries are references either way). Default: False.
        """
        if args:
            warnings.warn("Positional arguments of state_dict are deprecated in MindSpore; pass destination, "
                          "prefix and keep_vars by keyword.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"For 'state_dict', the 'destination' must be a dict (an OrderedDict), but got "
                            f"{type(destination).__name__}.")
        if not isinstance(prefix, str):
            raise TypeError(f"For 'state_dict', the 'prefix' must be a str, but got {type(prefix).__name__}.")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"For 'state_dict', the 'keep_vars' must be bool, but got {type(keep_vars).__name__}.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in list(self.__dict__.get("_state_dict_pre_hooks", {}).values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        for hook in list(self.__dict__.get("_state_dict_post_hooks", {}).values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                # MindSpore 2.10's first words; the Cell and what to do added
                raise RuntimeError(f"state_dict post-hook must return None (a state_dict post-hook of "
                                   f"'{type(self).__name__}' returned a value; edit the state_dict in place).")
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        for hook in list(self.__dict__.get("_load_state_dict_pre_hooks", {}).values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local = OrderedDict((name, p) for name, p in self._params.items() if p is not None)
        local.update((name, b) for name, b in self._buffers.items()
                     if b is not None and name not in self._non_persistent_buffers)
        for name, target in local.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected a Tensor from the '
                                  f"state_dict but received {type(value).__name__}.")
                continue
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {tuple(value.shape)} from "
                                  f"checkpoint, the shape in current model is {tuple(target.shape)}.")
                continue
            array = value._value.astype(target._value.dtype)
            if isinstance(target, Parameter):
                target.set_data(Tensor._wrap(array))
            else:
                self._buffers[name] = Tensor._wrap(array)
        extra_key = prefix + _EXTRA_STATE
        if self._defines("set_extra_state"):
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if not key.startswith(prefix) or key == extra_key:
                    continue
                head, dot, _ = key[len(prefix):].partition(".")
                if (head not in self._cells) if dot else (head not in local):
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copy values from ``state_dict`` (path -> Tensor) into the Parameters and buffers.

        Args:
            state_dict (Mapping): the values, keyed as ``state_dict()`` keys them.
            strict (bool): raise when keys are missing or unexpected. Default: True.

        Returns:
            a named tuple (missing_keys, unexpected_keys).
        """
        if not isinstance(state_dict, collections.abc.Mapping):
            raise TypeError(f"For 'load_state_dict', the 'state_dict' must be a Mapping, but got "
                            f"{type(state_dict).__name__}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(cell, local_state, prefix):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            # MindSpore always collects the key lists; `strict` only decides whether they raise.
            cell._load_from_state_dict(local_state, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in cell._cells.items():
                if child is not None:
                    child_prefix = f"{prefix}{name}."
                    load(child, {k: v for k, v in local_state.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in list(cell.__dict__.get("_load_state_dict_post_hooks", {}).values()):
                if hook(cell, keys) is not None:
                    # MindSpore 2.10's words (its missing spaces too); the Cell added
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                       "expected to return new values, if incompatible_keys need to be modified,"
                                       f"it should be done inplace. (A load_state_dict post-hook of "
                                       f"'{type(cell).__name__}' returned a value.)")

        load(self, state_dict, "")
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

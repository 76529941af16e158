"""Checkpoint weight obfuscation: ``obfuscate_ckpt`` and ``load_obf_params_into_net``.

``obfuscate_ckpt`` rewrites the chosen weights of every ``.ckpt`` in a folder with secret random
metadata, so the files alone do not reveal the model: per ``obf_config``,

- ``obf_metadata_config``: the secrets: ``{"name", "shape", "type": "random" | "rearrange",
  "save_metadata", "metadata_op", "layers"}``: a "random" secret holds integers in
  ``[1, obfuscate_scale)`` (float16), a "rearrange" one a permutation (1-D) or a permutation
  matrix (2-D); with ``save_metadata`` the returned dict holds it, passed through
  ``metadata_op`` ("invert": 1/x, the key that undoes a "mul");
- ``weight_obf_config``: ``{"target": "a/b/weight", "weight_obf_ops": [...], "layers": [...]}``:
  the ops applied to that parameter: ``mul`` (by a secret), ``permuate`` (index by a secret
  permutation), ``matmul`` (with a secret matrix; ``transpose_a``/``transpose_b``);
- ``network_obf_config``: ``{"module": "/a/b", "target": "fc1", "insert_ops": [...]}``: what
  ``load_obf_params_into_net`` applies to the loaded network to undo the obfuscation.

The obfuscated file is ``<name>_obf.ckpt``. ``target_modules=[path, "fc1|fc2"(, "obfuscate_layers:N")]``
is MindSpore's older shorthand for a config that multiplies the weights and biases of those
layers by one random ratio and gives back its inverse.

``load_obf_params_into_net(net, ..., obf_ratios=key)`` then applies the network config's ``mul``
by the key to the loaded obfuscated weights, so the network computes what the original one did.
(MindSpore 2.10 only checks its arguments there and returns the network still obfuscated; and
for ``target_modules`` with an empty path it builds targets with a leading '/' that match no
parameter. sporax applies the documented transformation in both cases.)
"""
import os
import re
from string import Template

import numpy as np

from sporax import log
from sporax.core.tensor import Tensor
from sporax.io.checkpoint import load_checkpoint, save_checkpoint
from sporax.state.discovery import is_cell

_METADATA_TYPES = ("random", "rearrange")
_PATH = re.compile(r"^[A-Za-z0-9_/]*$")
_TARGETS = re.compile(r"^[A-Za-z0-9_|]+$")
_LAYERS = re.compile(r"^obfuscate_layers:(all|\d+)$")


def _check_target_modules(network, target_modules):
    if not isinstance(target_modules, list):
        raise TypeError(f"target_modules type should be list, but got {type(target_modules)}.")
    if len(target_modules) < 2:
        raise ValueError(f"target_modules should contain at least two string values, in the form of ['A/B/C', "
                         f"'D1|D2'], but got {target_modules}.")
    if not all(isinstance(item, str) for item in target_modules):
        raise TypeError(f"The values of target_modules should be string, but got {target_modules}.")
    if not _PATH.match(target_modules[0]):
        raise ValueError(f"please check the input 'target_modules'{target_modules}, it should be in the form of "
                         "['A/B/C', 'D1|D2'], the first string may contain only letters, numbers, '_' and '/'.")
    if not target_modules[1] or not _TARGETS.match(target_modules[1]):
        raise ValueError(f"please check the input 'target_modules'{target_modules}, the second string should be "
                         "non-empty, of letters, numbers, '_' and '|'.")
    if len(target_modules) > 2 and not _LAYERS.match(target_modules[2]):
        raise ValueError(f"please check the input 'target_modules'{target_modules}, the third string should be in "
                         "the form of 'obfuscate_layers:all' or 'obfuscate_layers:int'.")
    module = network
    for part in [part for part in target_modules[0].split("/") if part]:
        if part == "blocks" and len(target_modules) > 2:
            break
        module = getattr(module, part, None)
        if module is None:
            raise ValueError(f"The network has no module '{target_modules[0]}' (at '{part}') named by target_modules.")


def _layer_count(target_modules):
    if len(target_modules) < 3:
        return None
    count = target_modules[2].split(":")[1]
    return 12 if count == "all" else int(count)


def _config_from_target_modules(target_modules, network):
    """MindSpore's shorthand: each target's weight and bias multiplied by one random ratio (per layer)."""
    path = target_modules[0].strip("/")
    layers = _layer_count(target_modules)
    suffix = "_${layer}" if layers is not None else ""
    if layers is not None:
        path = path.replace("blocks", "blocks/${layer}")
    layer_list = list(range(layers)) if layers is not None else []
    metadata = {"name": "obf_metadata" + suffix, "shape": [1], "type": "random", "save_metadata": True,
                "metadata_op": "invert", "layers": layer_list}
    config = {"obf_metadata_config": [metadata], "weight_obf_config": [], "network_obf_config": []}
    for name in target_modules[1].split("|"):
        prefix = "/".join(part for part in (path, name) if part)
        for kind in ("weight", "bias"):
            config["weight_obf_config"].append({
                "target": f"{prefix}/{kind}", "layers": layer_list,
                "weight_obf_ops": [{"name": "mul", "input_x": kind, "input_y": "obf_metadata" + suffix}]})
        config["network_obf_config"].append({
            "module": "/" + path, "target": name, "layers": layer_list,
            "insert_new_input": [{"name": "obf_metadata" + suffix}],
            "insert_ops": [{"name": "mul", "input_x": kind, "input_y": "obf_metadata" + suffix}
                           for kind in ("weight", "bias")]})
    return config


def _check_config(obf_config, key):
    if not isinstance(obf_config, dict):
        raise TypeError(f"obf_config type should be dict, but got {type(obf_config)}.")
    entries = obf_config.get(key)
    if not isinstance(entries, list) or not entries:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    for entry in entries:
        if not isinstance(entry, dict):
            raise TypeError(f"obf_config['{key}'] items should be dict, but got {type(entry)}.")
        if key == "obf_metadata_config":
            if not isinstance(entry.get("name"), str) or not isinstance(entry.get("shape"), list):
                raise TypeError("obf_config['obf_metadata_config'][] needs a str 'name' and a list 'shape'.")
            if entry.get("type", "random") not in _METADATA_TYPES:
                raise TypeError(f"obf_config[][]['type'] should be str and must in {list(_METADATA_TYPES)}, but got "
                                f"{entry.get('type')}.")
        elif key == "weight_obf_config":
            if not entry.get("target") or not entry.get("weight_obf_ops"):
                raise KeyError("target or obf_ops is None.")


def _secret(shape, kind, scale, rng):
    if kind == "rearrange":
        if len(shape) == 1:
            return rng.permutation(shape[0]).astype(np.int32)
        return np.identity(shape[0], dtype=np.int32)[:, rng.permutation(shape[1])]
    return rng.integers(1, scale, size=shape).astype(np.float16)


def _key(secret, op_name):
    if op_name is None:
        return secret
    if op_name != "invert":
        raise KeyError(f"'op name' must be in ['mul', 'matmul', 'invert'] for a metadata_op, but got {op_name}.")
    return (1.0 / secret.astype(np.float32)).astype(secret.dtype)


def _substitute(text, layer):
    return Template(text).safe_substitute({"layer": str(layer)})


def _apply_ops(value, ops, secrets, layer):
    """The weight ``value`` (ndarray) through ``weight_obf_ops``."""
    for op in ops:
        name = op.get("name")
        if not isinstance(name, str):
            raise TypeError(f"{name} should be str type, but got {type(name)}")
        if name == "mul":
            value = value * secrets[_substitute(op["input_y"], layer)].astype(value.dtype)
        elif name == "permuate":  # MindSpore's spelling
            value = value[secrets[_substitute(op["input_x"], layer)]]
        elif name == "matmul":
            def operand(key):
                label = _substitute(op[key], layer)
                return secrets[label] if label.startswith("obf_metadata") else value
            left, right = operand("input_x"), operand("input_y")
            left = left.T if op.get("transpose_a", False) else left
            right = right.T if op.get("transpose_b", False) else right
            value = np.matmul(left.astype(value.dtype), right.astype(value.dtype))
        else:
            raise ValueError(f"unsupported op, op must be matmul or permuate or mul, but got {name}.")
    return value


def _obfuscate_file(path, secrets, obf_config, saved_path):
    values = load_checkpoint(path)
    for name, parameter in values.items():
        if isinstance(parameter, str):
            continue
        parameter_path = name.replace(".", "/")
        for target in obf_config["weight_obf_config"]:
            layers = target.get("layers") or [None]
            for layer in layers:
                if _substitute(target["target"], layer) == parameter_path:
                    parameter.set_data(Tensor(_apply_ops(parameter.asnumpy(), target["weight_obf_ops"], secrets,
                                                         layer)))
    stem = os.path.basename(path).split(".")[0]
    os.makedirs(os.path.realpath(saved_path), exist_ok=True)
    save_checkpoint([{"name": name, "data": value} for name, value in values.items()],
                    os.path.join(os.path.realpath(saved_path), f"{stem}_obf.ckpt"))


def _check_folder(name, path):
    if not isinstance(path, str):
        raise TypeError(f"{name} must be string, but got {type(path)}.")
    if not os.path.exists(path):
        raise ValueError(f"{name} must be an existing path, but got {path}.")


def obfuscate_ckpt(network, ckpt_files, target_modules=None, obf_config=None, saved_path="./", obfuscate_scale=100):
    """Obfuscate the chosen weights of every checkpoint in ``ckpt_files`` (a folder); return the keys.

    Args:
        network (nn.Cell): the network the checkpoints belong to.
        ckpt_files (str): the folder of ``.ckpt`` files (sub-folders are done into same-named sub-folders).
        target_modules (list[str]): ``[path, "fc1|fc2"(, "obfuscate_layers:N")]``, the shorthand
            config (see the module). Default: ``None``.
        obf_config (dict): the obfuscation config (see the module); wins over ``target_modules``.
            Default: ``None``.
        saved_path (str): where the ``<name>_obf.ckpt`` files go. Default: ``'./'``.
        obfuscate_scale (Union[float, int]): random secrets lie in ``[1, obfuscate_scale)``. Default: ``100``.

    Returns:
        dict[str, ndarray], the saved metadata (the keys ``load_obf_params_into_net`` needs).

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 2)
        >>> ms.save_checkpoint(net, "/tmp/obf_example/net.ckpt")  # doctest: +SKIP
        >>> folder = "/tmp/obf_example"
        >>> keys = ms.obfuscate_ckpt(net, folder, ["", "dense"], saved_path=folder)  # doctest: +SKIP
    """
    if not is_cell(network):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    _check_folder("ckpt_files", ckpt_files)
    _check_folder("saved_path", saved_path)
    if obf_config is None:
        _check_target_modules(network, target_modules)
        obf_config = _config_from_target_modules(target_modules, network)
    _check_config(obf_config, "obf_metadata_config")
    _check_config(obf_config, "weight_obf_config")
    if isinstance(obfuscate_scale, bool) or not isinstance(obfuscate_scale, (float, int)) or obfuscate_scale <= 1:
        raise ValueError(f"obfuscate_scale must be float or int, and larger than 1, but got {obfuscate_scale}.")
    rng = np.random.default_rng()
    secrets, saved = {}, {}
    for entry in obf_config["obf_metadata_config"]:
        for layer in entry.get("layers") or [None]:
            name = _substitute(entry["name"], layer)
            if name in secrets:
                continue
            secrets[name] = _secret(entry["shape"], entry.get("type", "random"), obfuscate_scale, rng)
            if entry.get("save_metadata", False):
                saved[name] = _key(secrets[name], entry.get("metadata_op"))
    for entry in sorted(os.listdir(ckpt_files)):
        path = os.path.join(os.path.realpath(ckpt_files), entry)
        if os.path.isdir(path):
            target = os.path.join(os.path.realpath(saved_path), entry)
            os.makedirs(target, mode=0o700, exist_ok=True)
            for name in sorted(os.listdir(path)):
                if name.endswith(".ckpt"):
                    _obfuscate_file(os.path.join(path, name), secrets, obf_config, target)
        elif entry.endswith(".ckpt") and not entry.endswith("_obf.ckpt"):
            _obfuscate_file(path, secrets, obf_config, saved_path)
    return saved


def _keys(obf_ratios, names):
    if obf_ratios is None:
        return None
    if isinstance(obf_ratios, dict):
        return {name: np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)
                for name, value in obf_ratios.items()}
    if not isinstance(obf_ratios, Tensor):
        raise TypeError(f"obf_ratios type should be Tensor, but got {type(obf_ratios)}.")
    if obf_ratios.size == 0:
        raise ValueError("obf_ratios can not be empty.")
    value = obf_ratios.asnumpy()
    if len(names) == 1:
        return {names[0]: value}
    return {name: value[index:index + 1] for index, name in enumerate(names)}  # one ratio per layer, in order


def load_obf_params_into_net(network, target_modules=None, obf_ratios=None, obf_config=None, data_parallel_num=1,
                             **kwargs):
    """Undo the obfuscation in a network that loaded an obfuscated checkpoint; return the network.

    Args:
        network (nn.Cell): the network, with the ``_obf.ckpt`` loaded.
        target_modules (list[str]): the shorthand config given to ``obfuscate_ckpt``. Default: ``None``.
        obf_ratios (Union[Tensor, dict]): the keys ``obfuscate_ckpt`` returned (its dict, or the one
            ratio Tensor of the shorthand). Without keys the network stays obfuscated. Default: ``None``.
        obf_config (dict): the obfuscation config (its ``network_obf_config``). Default: ``None``.
        data_parallel_num (int): data-parallel degree (checked). Default: ``1``.
        kwargs: ``ignored_func_decorators``/``ignored_class_decorators`` (list[str]; checked).

    Returns:
        nn.Cell, the network, computing as the original.

    Example:
        >>> import sporax as ms
        >>> keys = {"obf_metadata": ms.Tensor([0.5], ms.float16)}
        >>> net = ms.load_obf_params_into_net(ms.nn.Dense(2, 2), ["", "weight"], obf_ratios=keys)  # doctest: +SKIP
    """
    if not is_cell(network):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    if obf_config is None:
        _check_target_modules(network, target_modules)
        obf_config = _config_from_target_modules(target_modules, network)
    _check_config(obf_config, "network_obf_config")
    if isinstance(data_parallel_num, bool) or not isinstance(data_parallel_num, int) or data_parallel_num <= 0:
        raise ValueError(f"data_parallel_num must be positive number, but got {data_parallel_num}.")
    for name in ("ignored_func_decorators", "ignored_class_decorators"):
        value = kwargs.get(name, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise TypeError(f"{name} should be list[str], but got {value!r}.")
    names = []
    for entry in obf_config["network_obf_config"]:
        for op in entry.get("insert_ops", []):
            for layer in entry.get("layers") or [None]:
                label = _substitute(op.get("input_y", ""), layer)
                if label.startswith("obf_metadata") and label not in names:
                    names.append(label)
    keys = _keys(obf_ratios, names)
    if keys is None:
        log.warning("load_obf_params_into_net: no obf_ratios given, so the network keeps the obfuscated weights. Pass "
                    "the dict obfuscate_ckpt returned to compute with the original weights.")
        return network
    parameters = dict(network.parameters_and_names())
    for entry in obf_config["network_obf_config"]:
        for layer in entry.get("layers") or [None]:
            module = _substitute(entry.get("module", ""), layer).strip("/").replace("/", ".")
            prefix = ".".join(part for part in (module, entry["target"]) if part)
            for op in entry.get("insert_ops", []):
                if op.get("name") != "mul":
                    raise ValueError(f"load_obf_params_into_net undoes 'mul' obfuscation ops, but got "
                                     f"{op.get('name')}.")
                label = _substitute(op["input_y"], layer)
                if label not in keys:
                    raise ValueError(f"obf_ratios has no key '{label}' that the config's insert_ops need.")
                parameter = parameters.get(f"{prefix}.{op.get('input_x', 'weight')}")
                if parameter is None:
                    raise ValueError(f"load_obf_params_into_net: the network has no parameter "
                                     f"'{prefix}.{op.get('input_x', 'weight')}' that obf_config names.")
                value = parameter.asnumpy()
                parameter.set_data(Tensor(value * keys[label].astype(value.dtype)))
    return network

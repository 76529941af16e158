"""``export`` and ``load``: a compiled network with its weights, runnable without its Python source.

``file_format="MINDIR"`` writes MindSpore's ModelProto (``sporax.io.mindir.writer``): the network
traced as GRAPH mode compiles it and written as MindSpore 2.10's primitives, which real MindSpore
loads with ``load`` + ``nn.GraphCell``. ``load`` reads any ModelProto (MindSpore's or sporax's) as a
``sporax.io.mindir.MindIRGraph`` that ``nn.GraphCell`` runs with sporax's Primitives, and still
reads the zip-packed StableHLO graphs earlier sporax versions wrote (``Graph``).
``file_format="ONNX"`` is in ``sporax.io.onnx_export``.

Example:
    >>> import sporax as ms
    >>> net = ms.nn.Dense(3, 2)
    >>> ms.export(net, ms.Tensor(shape=[None, 3], dtype=ms.float32), file_name="dense")
    >>> ms.nn.GraphCell(ms.load("dense.mindir"))(ms.ops.ones((5, 3))).shape
    (5, 2)
"""
import contextlib
import inspect
import io as bytes_io
import json
import os
import zipfile
import zlib
from importlib import metadata

import jax
import jax.numpy as jnp
import numpy as np

from sporax import temporary_files
from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import CREATION_LISTENERS, Parameter
from sporax.core.tensor import Tensor
from sporax.io import ckpt_codec
from sporax.io.atomic import write_atomic
from sporax.ops.lowering import plain_lowering
from sporax.state.discovery import DiscoveryCache, discover, is_parameter
from sporax.state.lifting import lift

FORMAT_NAME = "sporax-graph"
FORMAT_VERSION = 1
_SUFFIX = {"MINDIR": ".mindir", "ONNX": ".onnx", "AIR": ".air"}


def _unique_parameters(net):
    seen, result = set(), []
    for _, parameter in net.parameters_and_names():
        if id(parameter) not in seen:
            seen.add(id(parameter))
            result.append(parameter)
    return result


def _network_name(net):
    if hasattr(net, "parameters_and_names"):
        return type(net).__name__
    return getattr(net, "__name__", None) or type(net).__name__


def _input_spec(value, position, tied=False):
    """A ``jax.ShapeDtypeStruct`` for one export input; None/-1 dimensions become symbolic: axis 0 of every input
    is one batch, another axis is its own unless ``tied`` (the same axis of every input, one symbol)."""
    if isinstance(value, Tensor):
        shape, dtype = value.shape, mstype.to_numpy_dtype(value.dtype)
    elif isinstance(value, np.ndarray):
        shape, dtype = value.shape, value.dtype
    else:
        raise TypeError(f"For 'export', input {position} must be a Tensor or numpy.ndarray, "
                        f"got {type(value).__name__}.")
    if any(dim == -1 for dim in shape):
        names = ["batch" if axis == 0 else (f"d{axis}" if tied else f"d{position}_{axis}") if dim == -1 else str(dim)
                 for axis, dim in enumerate(shape)]
        shape = jax.export.symbolic_shape(", ".join(names), scope=_SCOPE)
    return jax.ShapeDtypeStruct(shape, dtype)


_SCOPE = jax.export.SymbolicScope()


def _flatten_outputs(value):
    """Output structure (nested tuples/lists of Tensors) as plain arrays plus a description."""
    if isinstance(value, Tensor):
        return [value._value], "T"
    if isinstance(value, (bool, np.bool_)):
        # An optimizer's per-parameter True (a train step's output): MindSpore exports it as a bool value.
        return [jnp.asarray(value)], "T"
    if isinstance(value, (tuple, list)):
        arrays, parts = [], []
        for item in value:
            item_arrays, item_structure = _flatten_outputs(item)
            arrays += item_arrays
            parts.append(item_structure)
        return arrays, {"tuple" if isinstance(value, tuple) else "list": parts}
    raise TypeError(f"For 'export', the network must return Tensors or tuples/lists of Tensors, "
                    f"got {type(value).__name__}.")


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Export ``net`` traced on ``inputs`` to ``file_name`` + suffix.

    Args:
        net (Cell): the network (its current ``set_train`` mode is exported).
        inputs (Tensor): example inputs; ``Tensor(shape=[None, ...], dtype=...)`` makes a dimension dynamic.
        file_name (str): the output path; ``.mindir`` / ``.onnx`` is appended when missing.
        file_format (str): 'MINDIR' (MindSpore's ModelProto) or 'ONNX'.
        enc_key (bytes): encrypt the MINDIR file with this key (``load(dec_key=...)``). Default: None.
        enc_mode (str): 'AES-GCM' (default), 'AES-CBC' or 'SM4-CBC'.
    """

    if isinstance(net, Parameter):
        # MindSpore's error; a Parameter is callable-looking data, not a network.
        raise RuntimeError(f"fn {net} is not function or method: 'export' takes the Cell or function to "
                           "export, with example inputs.")
    file_format = str(file_format).upper()
    if file_format not in _SUFFIX:
        raise ValueError(f"For 'export', file_format must be 'MINDIR' or 'ONNX', got {file_format!r}.")
    if file_format == "AIR":
        raise NotImplementedError("export(file_format='AIR'): AIR is an Ascend-only format that sporax "
                                  "does not write; use 'MINDIR' or 'ONNX'.")
    path = os.fspath(file_name)
    if not path.endswith(_SUFFIX[file_format]):
        path += _SUFFIX[file_format]
    if file_format == "ONNX":
        # Late: onnx is an optional dependency, and onnx_export builds on this module.
        try:
            from sporax.io.onnx_export import export_onnx
        except ModuleNotFoundError as error:
            if error.name != "onnx":
                raise
            raise ImportError("export(file_format='ONNX') needs the 'onnx' package: "
                              "pip install onnx") from None

        with plain_lowering():  # an exported graph is for any backend and runtime, not XLA:CPU's
            return export_onnx(net, inputs, path)

    if not callable(net):
        raise TypeError(f"For 'export', 'net' must be a Cell or a function, but got {type(net).__name__}.")
    discovered = DiscoveryCache(net).get().states
    if hasattr(net, "parameters_and_names"):
        parameters = _unique_parameters(net)
    else:
        # A function (``ms.jit``-decorated or not): its weights are the Parameters it reads.
        parameters = [state for state in discovered if is_parameter(state)]
    known = {id(parameter) for parameter in parameters}
    if hasattr(net, "parameters_and_names"):
        _check_owned(net, discovered)
    # Other state the forward pass reads (the RNG key) is frozen into the exported graph at its value.
    frozen = [state for state in discovered if id(state) not in known]
    frozen_values = [state._value for state in frozen]
    structure = {}

    def forward(*arguments):
        with _created_parameters_refused(net):
            outputs = net(*[Tensor._wrap(argument) for argument in arguments])
        arrays, structure["outputs"] = _flatten_outputs(outputs)
        return arrays

    pure = lift(forward, parameters + frozen, name=f"export({_network_name(net)})")

    def graph(parameter_values, *arguments):
        return pure(list(parameter_values) + frozen_values, *arguments)[0]

    from sporax.io.mindir import writer

    def build(tied):
        specs = [_input_spec(value, position, tied) for position, value in enumerate(inputs)]
        with plain_lowering():  # MindSpore primitives, not XLA:CPU's custom kernels
            return writer.build_model(_network_name(net), _version(), graph, writer.parameter_arrays(parameters),
                                      specs, _input_names(net, len(inputs)), structure)

    mode = context.get_mode()
    # Traced as GRAPH mode compiles it: tensor if/while become cond/while_loop (sporax.graph.control_flow)
    context.set_context(mode=context.GRAPH_MODE)
    try:
        try:
            model = build(tied=False)
        except Exception as error:
            if isinstance(error, RecursionError) or not any(-1 in tuple(value.shape)[1:] for value in inputs):
                raise
            # inputs whose dynamic axes must agree (token ids and their mask, both [None, None]): the same axis of
            # every input as one symbol; a source and a target sequence of their own lengths traced untied above
            try:
                model = build(tied=True)
            except Exception:
                raise error from None
    except RecursionError:
        raise NotImplementedError(
            f"export: '{_network_name(net)}' calls a function recursively under a branch on a tensor value; a "
            "sporax MINDIR graph holds no recursive calls (MindSpore's does). The network itself runs (eagerly); "
            "to export it, bound the recursion with a Python number or rewrite it as a loop.") from None
    finally:
        context.set_context(mode=mode)
    writer.write_model(model, path, kwargs.get("enc_key"), kwargs.get("enc_mode", "AES-GCM"))


def _version():

    try:
        return metadata.version("sporax")
    except metadata.PackageNotFoundError:
        return "0"


def _input_names(net, count):
    """MindSpore names a graph's inputs after the Python arguments of ``construct``."""

    function = getattr(net, "construct", net)
    try:
        names = [name for name, parameter in inspect.signature(function).parameters.items()
                 if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return [names[index] if index < len(names) else f"input_{index}" for index in range(count)]


@contextlib.contextmanager
def _created_parameters_refused(net):
    """While a Cell's forward is traced for export, a Parameter it creates (a Cell built in
    ``construct``) is refused with MindSpore's error: no Cell of the exported network owns it."""

    created = []
    if hasattr(net, "parameters_and_names"):
        CREATION_LISTENERS.append(created.append)
    try:
        yield
    finally:
        if hasattr(net, "parameters_and_names"):
            CREATION_LISTENERS.remove(created.append)
    if created:
        raise _not_created_in_cell(created[0])


def _not_created_in_cell(parameter):
    return ValueError(
        "There's a mindspore.Parameter that wasn't created in nn.Cell, and mindspore.export() does not support "
        f"exporting such Parameters. The parameter name is: {parameter.name}. Create it in the __init__ of a Cell "
        "of the network (self.name = Parameter(...)), or pass its value as an input.")


def _check_owned(net, discovered):
    """A Cell's forward may only read Parameters of its own (MindSpore refuses to export others): the
    globals and closures its Cells' ``construct`` name are searched for any other Parameter."""

    owned = {id(state) for state in discovered}
    methods = [cell.construct for _, cell in net.cells_and_names()]
    for state in discover(*methods).states:
        if is_parameter(state) and id(state) not in owned:
            raise _not_created_in_cell(state)


class Graph:
    """A loaded graph: its weights (``parameters``) and, for sporax graphs, a runnable program."""

    def __init__(self, file_name, parameters, exported=None, manifest=None):
        self.file_name = file_name
        self.parameters = parameters
        self.manifest = manifest or {}
        self._exported = exported

    @property
    def runnable(self):
        return self._exported is not None

    def call(self, parameter_arrays, *input_arrays):
        """Run the program; returns the outputs in the network's structure (arrays)."""
        if self._exported is None:
            raise NotImplementedError(
                f"{self.file_name} is a MindIR written by MindSpore: sporax reads its weights "
                "(Graph.parameters) but cannot run MindSpore graphs. Rebuild the network in Python, "
                "load the weights with load_param_into_net, or export it again with sporax.")
        arrays = self._exported.call(list(parameter_arrays), *input_arrays)
        return _rebuild(self.manifest["outputs"], iter(arrays))

    def __repr__(self):
        kind = "sporax graph" if self.runnable else "MindSpore MindIR (weights only)"
        return f"Graph({self.file_name!r}, {kind}, {len(self.parameters)} parameters)"


def _rebuild(structure, arrays):
    if structure == "T":
        return Tensor._wrap(next(arrays))
    if "tuple" in structure:
        return tuple(_rebuild(part, arrays) for part in structure["tuple"])
    return [_rebuild(part, arrays) for part in structure["list"]]


def load(file_name, **kwargs):
    """Load a ``.mindir`` file (MindSpore's ModelProto or a sporax graph) for ``nn.GraphCell``.

    Args:
        file_name (str): the ``.mindir`` file.
        dec_key (bytes): the key of a file exported with ``enc_key``. Default: None.
        dec_mode (str): 'AES-GCM' (default), 'AES-CBC' or 'SM4-CBC'.
    """
    path = os.fspath(file_name)
    if not path.endswith(".mindir"):
        raise ValueError(f"For 'load', the file name must end with '.mindir', got {path!r}.")
    if not os.path.isfile(path):
        raise ValueError(f"For 'load', the file {os.path.abspath(path)} does not exist.")
    temporary_files.remove_stale(path)
    if not zipfile.is_zipfile(path):
        from sporax.io.mindir import MindIRGraph  # io.mindir builds on this module's Graph

        return MindIRGraph(path, kwargs.get("dec_key"), kwargs.get("dec_mode", "AES-GCM"))
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        with zipfile.ZipFile(bytes_io.BytesIO(data)) as archive:
            manifest = json.loads(archive.read("manifest.json"))
            if manifest.get("format") != FORMAT_NAME:
                raise ValueError(f"For 'load', {path} is a zip file but not a sporax graph.")
            if manifest.get("version", 0) > FORMAT_VERSION:
                raise ValueError(f"For 'load', {path} was written by a newer sporax (graph format "
                                 f"{manifest['version']}); upgrade sporax to load it.")
            graph_bytes = archive.read("graph.stablehlo")
            weights = ckpt_codec.decode(archive.read("weights.ckpt"), path)
            parameters = {name: weights[name] for name in manifest["parameters"]}
    except (zipfile.BadZipFile, zlib.error, KeyError, ValueError, TypeError, AttributeError, EOFError) as error:
        if isinstance(error, ValueError) and path in str(error):
            raise
        raise ValueError(f"For 'load', {path} is a damaged sporax graph file ({type(error).__name__}: "
                         f"{error}); export it again.") from None
    try:
        exported = jax.export.deserialize(bytearray(graph_bytes))
    except Exception as error:  # flatbuffer and MLIR parsers raise assorted types
        raise ValueError(f"For 'load', the compiled graph in {path} cannot be read ({error}); the "
                         "file is damaged or was written by an incompatible jax; export it again.") from None
    return Graph(path, parameters, exported, manifest)

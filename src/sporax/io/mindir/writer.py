"""Write a traced sporax network as a MindIR ModelProto that MindSpore 2.10 loads and runs.

The main graph's inputs are the network's arguments (``Tensor(shape=[None, ...])`` dims as -1), its
parameters the network's weights under their MindSpore names (ref_key = the ckpt key), and its nodes
the translation of the traced program (``translate``). Weights over 1 GiB go to
``<name>_variables/data_0`` beside ``<name>_graph.mindir`` as MindSpore writes them (``formats.md`` C.3):
a 64-byte header (byte 0 = 1: little-endian), then the weights sorted by name, each padded to 64 bytes.
"""
import os

import jax
import numpy as np

from sporax.io.atomic import write_atomic
from sporax.io.mindir.builder import ModelBuilder
from sporax.io.mindir.graph_nodes import Value
from sporax.io.mindir.proto import ATTRIBUTE_TYPE, AttributeProto
from sporax.io.mindir.translate import emit

EXTERNAL_DATA_THRESHOLD = 1 << 30  # bytes of weights above which MindSpore writes external data files
_ALIGNMENT = 64


def _output_tree(builder, structure, values):
    """Rebuild the network's output structure with MakeTuple: ``(name, type attribute)``."""
    if structure == "T":
        value = next(values)
        attribute = AttributeProto(type=ATTRIBUTE_TYPE["TENSORS"])
        from sporax.io.mindir.builder import tensor_type

        attribute.tensors.append(tensor_type(value.aval.shape, value.aval.dtype))
        return value.name, attribute
    parts = structure.get("tuple", structure.get("list"))
    names, attribute = [], AttributeProto(type=ATTRIBUTE_TYPE["TUPLE"])
    for part in parts:
        name, item = _output_tree(builder, part, values)
        names.append(name)
        attribute.values.append(item)
    attribute.seq_info.is_dyn_len = False
    return builder.make_tuple(names), attribute


def build_model(name, version, graph, parameters, input_specs, input_names, structure):
    """The ModelProto of ``graph(parameter_values, *inputs)`` traced on the specs."""
    closed = jax.make_jaxpr(graph)([jax.ShapeDtypeStruct(array.shape, array.dtype) for _, array in parameters],
                                   *input_specs)
    model = ModelBuilder(f"{name}_construct", version)
    main = model.main
    arguments = [Value(main.add_parameter(parameter_name, array), jax.core.ShapedArray(array.shape, array.dtype))
                 for parameter_name, array in parameters]
    for spec, input_name in zip(input_specs, input_names):
        arguments.append(Value(main.add_input(input_name, spec.shape, spec.dtype),
                               jax.core.ShapedArray(spec.shape, spec.dtype)))
    outputs = emit(main, closed, arguments)
    result, attribute = _output_tree(main, structure["outputs"], iter(outputs))
    info = main.proto.output.add(name=result)
    if attribute.type == ATTRIBUTE_TYPE["TENSORS"]:
        info.tensor.extend(attribute.tensors)
    else:
        info.denotation = "Tuple"
        info.attr_info.CopyFrom(attribute)
    return model.proto


def _externalise(model, path):
    """Move the weights to ``<stem>_variables/data_0``; returns (graph path, data path, data bytes)."""
    stem = path[:-len(".mindir")]
    folder = os.path.basename(stem) + "_variables"
    location = f"{folder}/data_0"
    blob = bytearray(b"\x01" + bytes(_ALIGNMENT - 1))
    for tensor in sorted(model.graph.parameter, key=lambda tensor: tensor.ref_key):
        raw = tensor.raw_data
        tensor.external_data.location = location
        tensor.external_data.offset, tensor.external_data.length = len(blob), len(raw)
        tensor.ClearField("raw_data")
        blob += raw + bytes(-len(raw) % _ALIGNMENT)
    return stem + "_graph.mindir", os.path.join(os.path.dirname(stem), location), bytes(blob)


def write_model(model, path, enc_key=None, enc_mode="AES-GCM"):
    """Write ``model`` to ``path`` (mode 0400 as MindSpore), with external data when over 1 GiB."""
    weight_bytes = sum(len(tensor.raw_data) for tensor in model.graph.parameter)
    if weight_bytes > EXTERNAL_DATA_THRESHOLD:
        path, data_path, blob = _externalise(model, path)
        os.makedirs(os.path.dirname(data_path), exist_ok=True)
        write_atomic(data_path, blob, mode=0o400)
    data = model.SerializeToString()
    if enc_key is not None:
        from sporax.io.encryption import encrypt

        data = encrypt(data, enc_key, enc_mode)
    write_atomic(path, data, mode=0o400)
    return path


def parameter_arrays(parameters):
    return [(parameter.name, np.asarray(parameter.asnumpy())) for parameter in parameters]

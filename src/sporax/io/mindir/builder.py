"""Assemble a MindIR ModelProto: graphs, nodes, constants and primitives (``formats.md`` C.4, C.5).

``ModelBuilder`` owns the ModelProto; ``GraphBuilder`` appends nodes to one graph (the main graph or a
function such as a loop body). ``op`` writes a primitive call in MindSpore 2.10's calling convention:
PRIMITIVE_FUNCTION (op parameters as trailing constant inputs) unless attributes are given.

Example:
    >>> from sporax.io.mindir.builder import ModelBuilder
    >>> model = ModelBuilder("net")
    >>> main = model.main
    >>> x = main.add_input("x", (2, 3), "float32")
    >>> main.set_outputs([main.op("ReLU", [x])], [((2, 3), "float32")])
    >>> model.proto.graph.node[0].op_type
    'REF::ReLU:1'
"""
import numpy as np

from sporax.io.mindir.proto import ATTRIBUTE_TYPE, AttributeProto, ModelProto, PrimitiveProto, TensorProto
from sporax.io.mindir.values import CODE_BY_NUMPY, array_tensor, constant_attribute

PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2
# What MindSpore's loader needs at model level (C.5): producer and version non-empty, mind_ir_version 3.
PRODUCER, MIND_IR_VERSION = "sporax", 3


def _dims(shape):
    return [dim if isinstance(dim, (int, np.integer)) else -1 for dim in shape]


def tensor_type(shape, dtype):
    """A TensorProto carrying only a type: dims (-1 for dynamic) and data_type."""
    return TensorProto(dims=_dims(shape), data_type=CODE_BY_NUMPY[np.dtype(dtype)])


class ModelBuilder:
    """A ModelProto under construction, with its main graph ``main``."""

    def __init__(self, name, version="0"):
        self.proto = ModelProto(ir_version="1.1", producer_name=PRODUCER, model_version=str(version),
                                little_endian=True, mind_ir_version=MIND_IR_VERSION)
        self.proto.graph.name = name
        self._primitives, self._counter = {}, 0
        self.main = GraphBuilder(self, self.proto.graph)

    def unique(self, stem):
        self._counter += 1
        return f"{stem}_{self._counter}"

    def function(self, stem):
        """A new function graph (a loop header, body or branch) in ModelProto.functions."""
        graph = self.proto.functions.add()
        graph.name = self.unique(f"{self.proto.graph.name}_{stem}")
        return GraphBuilder(self, graph)

    def primitive(self, op_type, prim_type, attributes):
        key = (op_type, prim_type, repr(sorted(attributes.items())))
        if key not in self._primitives:
            self._counter += 1
            name = f"{op_type}:{self._counter}"
            primitive = self.proto.primitives.add(name=name, op_type=op_type, prim_type=prim_type)
            for attribute_name, value in attributes.items():
                primitive.attribute.append(constant_attribute(value, attribute_name))
            self._primitives[key] = name
        return self._primitives[key]


class GraphBuilder:
    """Appends nodes to one GraphProto; every method returns the name other nodes read."""

    def __init__(self, model, proto):
        self.model, self.proto, self.name = model, proto, proto.name
        self._constants = {}
        self.dimensions = {}  # a dynamic dimension's name -> (an input having it, its axis)

    def add_input(self, name, shape, dtype):
        full = f"{self.name}:{name}"
        self.proto.input.add(name=full).tensor.append(tensor_type(shape, dtype))
        for axis, dim in enumerate(shape):
            if not isinstance(dim, (int, np.integer)):
                self.dimensions.setdefault(str(dim), (full, axis))
        return full

    def add_parameter(self, name, array):
        full = f"{self.name}:{name}"
        self.proto.parameter.append(array_tensor(np.asarray(array), full, ref_key=name))
        return full

    def constant(self, value):
        """A Constant node holding ``value`` (a scalar, tuple or NumPy array)."""
        if isinstance(value, np.ndarray):
            key = ("array", value.dtype.str, value.shape, value.tobytes())
        else:
            key = (type(value).__name__, repr(value))
        if key not in self._constants:
            name = self.model.unique("ValueNode")
            node = self.proto.node.add(name=name, op_type="Constant")
            node.output.append(name)
            node.attribute.append(constant_attribute(value))
            self._constants[key] = name
        return self._constants[key]

    def _node(self, op_type, inputs, stem):
        name = f"{self.name}:{self.model.unique(stem)}"
        node = self.proto.node.add(name=name, op_type=op_type, domain=f"Default/{stem}")
        node.input.extend(inputs)
        node.output.append(name)
        return name

    def op(self, op_type, inputs, attributes=None, prim_type=None):
        """Call primitive ``op_type``; ``attributes`` makes it the PRIMITIVE convention."""
        if prim_type is None:
            prim_type = PRIMITIVE if attributes is not None else PRIMITIVE_FUNCTION
        primitive = self.model.primitive(op_type, prim_type, dict(attributes or {}))
        return self._node(f"REF::{primitive}", [self._input(value) for value in inputs], op_type)

    def _input(self, value):
        return value if isinstance(value, str) else self.constant(value)

    def make_tuple(self, items):
        return self.op("MakeTuple", items, {}, PRIMITIVE)

    def get_item(self, sequence, index):
        return self.op("TupleGetItem", [sequence, self.constant(int(index))], {}, PRIMITIVE)

    def partial(self, function, captures):
        return self.op("Partial", [function] + list(captures), {"side_effect_propagate": 1}, PRIMITIVE)

    def switch(self, condition, on_true, on_false):
        return self.op("Switch", [condition, on_true, on_false], {}, PRIMITIVE)

    def call(self, target, arguments):
        """Call a graph (by name) or a function value (a node name)."""
        return self._node(f"REF::{target}", list(arguments), "call")

    def set_outputs(self, names, types):
        """The graph's result: one value, or a MakeTuple of several (``types``: (shape, dtype) each)."""
        result = names[0] if len(names) == 1 else self.make_tuple(names)
        self.describe_output(result, types)
        return result

    def describe_output(self, name, types):
        """Declare ``name`` the graph's output, of one type or a tuple of ``types``."""
        if len(types) == 1:
            self.proto.output.add(name=name).tensor.append(tensor_type(*types[0]))
            return
        info = self.proto.output.add(name=name, denotation="Tuple")
        info.attr_info.type = ATTRIBUTE_TYPE["TUPLE"]
        for shape, dtype in types:
            item = AttributeProto(type=ATTRIBUTE_TYPE["TENSORS"])
            item.tensors.append(tensor_type(shape, dtype))
            info.attr_info.values.append(item)
        info.attr_info.seq_info.is_dyn_len = False

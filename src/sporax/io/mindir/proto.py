"""MindSpore's ``mind_ir.proto`` schema (``formats.md`` C), as protobuf message classes.

The schema is declared here as a table of (field number, name, label, type) and turned into
message classes with the ``protobuf`` library's descriptor pool, so no generated ``_pb2`` file and
no ``protoc`` are needed. Only the messages a MindIR file of MindSpore 2.x holds are declared;
unknown fields in a file are kept by protobuf and ignored by sporax.

Example:
    >>> from sporax.io.mindir.proto import ModelProto
    >>> ModelProto(producer_name="sporax").producer_name
    'sporax'
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_FIELD = descriptor_pb2.FieldDescriptorProto
OPTIONAL, REQUIRED, REPEATED = _FIELD.LABEL_OPTIONAL, _FIELD.LABEL_REQUIRED, _FIELD.LABEL_REPEATED
_SCALAR = {"string": _FIELD.TYPE_STRING, "bytes": _FIELD.TYPE_BYTES, "int64": _FIELD.TYPE_INT64,
           "int32": _FIELD.TYPE_INT32, "uint64": _FIELD.TYPE_UINT64, "float": _FIELD.TYPE_FLOAT,
           "double": _FIELD.TYPE_DOUBLE, "bool": _FIELD.TYPE_BOOL, "uint32": _FIELD.TYPE_UINT32}

ATTRIBUTE_TYPES = ["UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING",
                   "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
                   "TENSOR", "GRAPH", "TENSORS", "TUPLE", "LIST", "DICT", "UMONAD", "IOMONAD", "NONE",
                   "PRIMITIVECLOSURE", "FUNCGRAPHCLOSURE", "PARTIALCLOSURE", "UNIONFUNCCLOSURE",
                   "CSR_TENSOR", "COO_TENSOR", "ROW_TENSOR", "CLASS_TYPE", "NAME_SPACE", "SYMBOL",
                   "TYPE_NULL", "MAP_TENSOR", "FUNCTOR", "SCALAR", "SCALAR_GRAPH_HOLDER"]
DATA_TYPES = ["UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
              "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT64",
              "QINT4X2"]

# message -> [(number, name, label, type)]; a type naming a message or an enum is that message/enum.
_ENUMS = {
    "AttributeProto.AttributeType": {name: number for number, name in enumerate(ATTRIBUTE_TYPES)},
    "TensorProto.DataType": {name: number for number, name in enumerate(DATA_TYPES)},
    "TensorProto.CompressionType": {"NO_COMPRESSION": 0, "INDEXING": 1, "SPARSE": 2, "FSE": 3,
                                    "BIT_PACKING": 4, "FSE_INT": 5, "FSE_INFER": 6},
    "PrimitiveProto.PrimType": {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2},
    "FunctorProto.FunctorType": {"SHAPE_CALC_FUNCTOR": 1, "ANY_FUNCTOR": 2},
}
_MESSAGES = {
    "AttributeProto.SeqInfoProto": [(1, "is_dyn_len", OPTIONAL, "bool"),
                                    (2, "tuple_elem_item", OPTIONAL, "AttributeProto")],
    "AttributeProto": [
        (1, "name", OPTIONAL, "string"), (2, "f", OPTIONAL, "float"), (3, "i", OPTIONAL, "int64"),
        (4, "d", OPTIONAL, "double"), (5, "s", OPTIONAL, "bytes"), (6, "t", OPTIONAL, "TensorProto"),
        (7, "g", OPTIONAL, "GraphProto"), (8, "floats", REPEATED, "float"),
        (9, "doubles", REPEATED, "double"), (10, "ints", REPEATED, "int64"),
        (11, "strings", REPEATED, "bytes"), (12, "tensors", REPEATED, "TensorProto"),
        (13, "graphs", REPEATED, "GraphProto"), (14, "doc_string", OPTIONAL, "string"),
        (15, "ref_attr_name", OPTIONAL, "string"),
        (16, "type", OPTIONAL, "AttributeProto.AttributeType"),
        (17, "values", REPEATED, "AttributeProto"),
        (18, "seq_info", OPTIONAL, "AttributeProto.SeqInfoProto"),
        (19, "functor", OPTIONAL, "FunctorProto"),
        (20, "graph_holder", OPTIONAL, "ScalarGraphHolderProto")],
    "FunctorProto": [(1, "type", OPTIONAL, "FunctorProto.FunctorType"), (2, "name", OPTIONAL, "string"),
                     (3, "values", REPEATED, "AttributeProto")],
    "ValueInfoProto": [(1, "name", OPTIONAL, "string"), (2, "tensor", REPEATED, "TensorProto"),
                       (3, "doc_string", OPTIONAL, "string"), (4, "denotation", OPTIONAL, "string"),
                       (5, "attr_info", OPTIONAL, "AttributeProto")],
    "NodeProto": [(1, "input", REPEATED, "string"), (2, "output", REPEATED, "string"),
                  (3, "name", OPTIONAL, "string"), (4, "op_type", OPTIONAL, "string"),
                  (5, "attribute", REPEATED, "AttributeProto"), (6, "doc_string", OPTIONAL, "string"),
                  (7, "domain", OPTIONAL, "string"), (8, "node_attr", REPEATED, "AttributeProto"),
                  (9, "primal_attr", REPEATED, "AttributeProto")],
    "ModelProto.UserInfoEntry": [(1, "key", OPTIONAL, "string"), (2, "value", OPTIONAL, "string")],
    "ModelProto": [
        (1, "ir_version", OPTIONAL, "string"), (2, "producer_name", OPTIONAL, "string"),
        (3, "producer_version", OPTIONAL, "string"), (4, "domain", OPTIONAL, "string"),
        (5, "model_version", OPTIONAL, "string"), (6, "doc_string", OPTIONAL, "string"),
        (7, "graph", OPTIONAL, "GraphProto"), (8, "functions", REPEATED, "GraphProto"),
        (10, "little_endian", OPTIONAL, "bool"), (12, "primitives", REPEATED, "PrimitiveProto"),
        (13, "mind_ir_version", OPTIONAL, "int64"),
        (14, "user_info", REPEATED, "ModelProto.UserInfoEntry")],
    "GraphProto": [(1, "node", REPEATED, "NodeProto"), (2, "name", OPTIONAL, "string"),
                   (3, "parameter", REPEATED, "TensorProto"), (4, "doc_string", OPTIONAL, "string"),
                   (5, "input", REPEATED, "ValueInfoProto"), (6, "output", REPEATED, "ValueInfoProto"),
                   (7, "bprop_hash", OPTIONAL, "string"), (8, "attribute", REPEATED, "AttributeProto"),
                   (9, "bprop_filepath", OPTIONAL, "string")],
    "TensorProto.ExternalDataProto": [(1, "location", OPTIONAL, "string"), (2, "offset", OPTIONAL, "int64"),
                                      (3, "length", OPTIONAL, "int64")],
    "TensorProto": [
        (1, "dims", REPEATED, "int64"), (2, "data_type", OPTIONAL, "int32"),
        (3, "float_data", REPEATED, "float"), (4, "int32_data", REPEATED, "int32"),
        (5, "string_data", REPEATED, "bytes"), (6, "int64_data", REPEATED, "int64"),
        (7, "name", OPTIONAL, "string"), (8, "doc_string", OPTIONAL, "string"),
        (9, "raw_data", OPTIONAL, "bytes"), (10, "double_data", REPEATED, "double"),
        (11, "uint64_data", REPEATED, "uint64"),
        (12, "external_data", OPTIONAL, "TensorProto.ExternalDataProto"),
        (13, "ref_key", OPTIONAL, "string"), (14, "min_dims", REPEATED, "int64"),
        (15, "max_dims", REPEATED, "int64"),
        (16, "compression_type", OPTIONAL, "TensorProto.CompressionType")],
    "PrimitiveProto": [(1, "name", OPTIONAL, "string"), (2, "op_type", OPTIONAL, "string"),
                       (3, "attribute", REPEATED, "AttributeProto"), (4, "instance_name", OPTIONAL, "string"),
                       (5, "prim_type", OPTIONAL, "PrimitiveProto.PrimType")],
    "ScalarNodeProto": [(1, "scalar_op_type", OPTIONAL, "int64"), (2, "in_index", REPEATED, "int64"),
                        (3, "value", REPEATED, "int64")],
    "ScalarGraphHolderProto": [(1, "scalar_node", REPEATED, "ScalarNodeProto"),
                               (2, "input_shape_index", REPEATED, "uint64")],
}


def build_messages(file_name, package, messages, enums=None):
    """``{message name: class}`` of the proto2 schema ``messages`` (and ``enums``) in the tables' form above.

    Each schema gets a private descriptor pool: a real MindSpore imported in the same process
    registers its own files under the same package names.
    """
    enums = enums or {}
    file_proto = descriptor_pb2.FileDescriptorProto(name=file_name, package=package, syntax="proto2")
    declared = {}
    for full_name in sorted(messages, key=lambda name: name.count(".")):  # parents first
        parent, _, leaf = full_name.rpartition(".")
        container = declared[parent].nested_type if parent else file_proto.message_type
        declared[full_name] = container.add(name=leaf)
    for full_name, values in enums.items():
        parent, _, leaf = full_name.rpartition(".")
        enum = declared[parent].enum_type.add(name=leaf)
        for name, number in values.items():
            enum.value.add(name=name, number=number)
    for full_name, fields in messages.items():
        for number, name, label, kind in fields:
            field = declared[full_name].field.add(name=name, number=number, label=label)
            if kind in _SCALAR:
                field.type = _SCALAR[kind]
            else:
                field.type = _FIELD.TYPE_ENUM if kind in enums else _FIELD.TYPE_MESSAGE
                field.type_name = f".{package}.{kind}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_proto)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{name}"))
            for name in messages}


_CLASSES = build_messages("sporax_mind_ir.proto", "mind_ir", _MESSAGES, _ENUMS)
ModelProto = _CLASSES["ModelProto"]
GraphProto = _CLASSES["GraphProto"]
NodeProto = _CLASSES["NodeProto"]
TensorProto = _CLASSES["TensorProto"]
AttributeProto = _CLASSES["AttributeProto"]
ValueInfoProto = _CLASSES["ValueInfoProto"]
PrimitiveProto = _CLASSES["PrimitiveProto"]
ATTRIBUTE_TYPE = {name: number for number, name in enumerate(ATTRIBUTE_TYPES)}

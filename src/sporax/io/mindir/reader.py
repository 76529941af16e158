"""Read a MindIR file written by MindSpore (or sporax): decryption, the ModelProto, its weights.

Weights sit in ``graph.parameter`` (raw_data, named by ref_key) or, for models over 1 GiB, in
``<name>_variables/data_N`` files next to the graph (``external_data``: location, offset, length).

Example:
    >>> from sporax.io.mindir.reader import read_model
    >>> model, weights = read_model("lenet5.mindir")  # doctest: +SKIP
"""
import os

from google.protobuf.message import DecodeError

from sporax.io import encryption
from sporax.io.mindir.proto import ModelProto
from sporax.io.mindir.values import tensor_array


def parameter_name(tensor):
    """The name MindSpore gives a weight (its ckpt key): ref_key, else the name after ``graph:``."""
    return tensor.ref_key or tensor.name.split(":", 1)[-1]


def _external_bytes(tensor, directory, file_name, cache):
    location = tensor.external_data.location
    path = os.path.join(directory, location)
    if path not in cache:
        if not os.path.isfile(path):
            raise ValueError(f"For 'load', {file_name}: parameter {parameter_name(tensor)!r} is stored in "
                             f"the external data file {location!r}, which does not exist next to the "
                             "graph. Copy the whole '<name>_variables' folder with the .mindir file.")
        with open(path, "rb") as handle:
            cache[path] = handle.read()
    data = cache[path]
    start, length = tensor.external_data.offset, tensor.external_data.length
    if start + length > len(data):
        raise ValueError(f"For 'load', {file_name}: parameter {parameter_name(tensor)!r} claims bytes "
                         f"{start}..{start + length} of {location!r}, which has {len(data)}: truncated.")
    return data[start:start + length]


def read_model(file_name, dec_key=None, dec_mode="AES-GCM"):
    """``(ModelProto, {name: ndarray})`` for a MindIR file; weights in the file's order."""
    with open(file_name, "rb") as handle:
        data = handle.read()
    short = os.path.basename(file_name)
    if dec_key is not None:
        data = encryption.decrypt(data, dec_key, dec_mode, short)
    elif encryption.is_encrypted(data):
        raise ValueError(f"For 'load', {short} is encrypted: pass dec_key (and dec_mode) as when it "
                         "was exported.")
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError) as error:
        raise RuntimeError(f"For 'load', {short}: byte 0: {error}. The file is truncated, encrypted "
                         "(pass dec_key) or is not a MindIR file.") from None
    if not model.HasField("graph"):
        raise RuntimeError(f"For 'load', {short}: byte 0: no graph in the file. The file is truncated "
                         "or is not a MindIR file.")
    directory, cache, weights = os.path.dirname(os.path.abspath(file_name)), {}, {}
    for tensor in model.graph.parameter:
        name = parameter_name(tensor)
        raw = None
        if tensor.HasField("external_data"):
            raw = _external_bytes(tensor, directory, short, cache)
        weights[name] = tensor_array(tensor, f"{short}: parameter {name!r}", raw)
    return model, weights

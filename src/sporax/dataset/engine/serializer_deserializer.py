"""``serialize`` / ``deserialize``: a pipeline as MindSpore's JSON and back.

The JSON is MindSpore's own format (``op_type`` nodes with ``children``, samplers, transforms as
``tensor_op_name``/``tensor_op_params``), so a file written by MindSpore's ``ds.serialize``
rebuilds here and one written here rebuilds in MindSpore. Python functions are written by name
only, as MindSpore writes them, and cannot be rebuilt.
"""
import json
import os

from sporax.dataset.engine import serdes_nodes
from sporax.dataset.engine.datasets import SourceDataset


def _node_to_json(node, identify):
    op_type, fields = serdes_nodes.node_fields(node, identify)
    cache = getattr(node, "cache", None)
    if cache is not None:
        fields["cache"] = serdes_nodes.cache_to_json(cache)
    fields["op_type"] = op_type
    fields["children"] = [_node_to_json(child, identify) for child in node.children]
    return dict(sorted(fields.items()))


def to_json(dataset, filename=""):
    """The pipeline ending at ``dataset`` as MindSpore's JSON dict, also written to ``filename``."""
    document = _node_to_json(dataset, identify=False)
    if filename:
        with open(filename, "w") as handle:
            json.dump(document, handle, sort_keys=True)
    return document


def serialize(dataset, json_filepath=""):
    """Serialize the pipeline ending at ``dataset`` into MindSpore's JSON (and ``json_filepath``).

    Args:
        dataset (Dataset): the last node of the pipeline.
        json_filepath (str): a file to write the JSON to; ``''`` (default) writes none.

    Returns:
        dict, the serialized pipeline.

    Example:
        >>> import sporax.dataset as ds
        >>> data = ds.TextFileDataset("/path/to/lines.txt").repeat(2)  # doctest: +SKIP
        >>> ds.serialize(data)["op_type"]  # doctest: +SKIP
        'Repeat'
    """
    return to_json(dataset, json_filepath)


def fingerprint(dataset):
    """A string identifying the pipeline (Python functions by identity): a cache's key."""
    return json.dumps(_node_to_json(dataset, identify=True), sort_keys=True)


def _unknown(entry, found):
    op_type = entry.get("op_type")
    if op_type is None:
        raise RuntimeError("Failed to find op_type in json.")
    if op_type not in serdes_nodes.KNOWN_OP_TYPES:
        found.add(op_type)
    for child in entry.get("children", []):
        _unknown(child, found)


def _build(entry, caches):
    children = [_build(child, caches) for child in entry.get("children", [])]
    return serdes_nodes.build(entry["op_type"], entry, children, caches)


class DeserializedDataset(SourceDataset):
    """What ``deserialize`` returns for an ``input_dict`` that is not a dict (a path string, say): MindSpore
    builds it without reading it, and the pipeline fails at its first use (size, columns or iteration).

    Args:
        document (object): the ``input_dict`` given.

    Example:
        >>> import sporax.dataset as ds
        >>> data = ds.deserialize("/path/to/autotune_out_0.json")  # no error until it is used
    """

    def __init__(self, document):
        super().__init__()
        self._document = document

    def _fail(self, *args):
        raise RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "
                           f"For 'deserialize', input_dict is a {type(self._document).__name__} "
                           f"({self._document!r}), not a serialized pipeline (a dict); pass a file as "
                           "json_filepath=... instead.")

    _column_names = _static_size = _blocks = _fail


def deserialize(input_dict=None, json_filepath=None):
    """Rebuild a pipeline from MindSpore's JSON (a dict, or a file written by ``serialize``).

    Args:
        input_dict (dict): the serialized pipeline. Default: None.
        json_filepath (str): a JSON file holding it; used when given. Default: None.

    Returns:
        Dataset, the rebuilt pipeline; None when neither argument is given (as in MindSpore); a
        ``DeserializedDataset`` that fails when used for an ``input_dict`` that is not a dict.

    Raises:
        RuntimeError: the file cannot be opened, or the JSON names operations sporax cannot
            rebuild (all of them are named), such as a Python function or GeneratorDataset.

    Example:
        >>> import sporax.dataset as ds
        >>> data = ds.TextFileDataset("/path/to/lines.txt").repeat(2)  # doctest: +SKIP
        >>> same = ds.deserialize(input_dict=ds.serialize(data))  # doctest: +SKIP
    """
    document = input_dict or None
    if json_filepath:
        path = os.path.realpath(json_filepath)
        try:
            with open(path) as handle:
                document = json.load(handle)
        except OSError as exc:
            raise RuntimeError(f"Invalid file, failed to open json file: {json_filepath} "
                               f"({exc.strerror}).") from None
    if document is None:
        return None
    if not isinstance(document, dict):
        return DeserializedDataset(document)
    unknown = set()
    _unknown(document, unknown)
    if unknown:
        raise RuntimeError(f"Invalid data, unsupported operation type: {', '.join(sorted(unknown))}. "
                           f"sporax rebuilds these: {list(serdes_nodes.KNOWN_OP_TYPES)}.")
    return _build(document, {})

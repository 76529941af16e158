"""``merge_pipeline_strategys``: merge the strategy files of pipeline stages into one file.

Each stage of a pipeline-parallel job saves its own strategy file (protobuf ``ParallelStrategyMap``
or JSON; see ``strategy_file``). The merged file holds every stage's operator strategies and
every stage's parameter layouts, the parameter names prefixed with their stage
(``"1-fc2.weight"``), and ``current_stage = 1``, as MindSpore writes it. A stage that appears in
two files is taken once. Files are read in name order; the protobuf is rewritten at the wire
level (``sporax.io.wire``), so no protobuf runtime is needed.

Example:
    >>> import sporax as ms
    >>> ms.merge_pipeline_strategys("./src_strategy_dir", "./dst_strategy.ckpt")  # doctest: +SKIP
"""
import glob
import json
import os

from sporax.io.atomic import write_atomic
from sporax.io.wire import encode_varint, iterate_fields, length_delimited


def _stage_of_protobuf(data, item_span):
    for number, wire_type, value, _ in iterate_fields(data, *item_span):
        if number == 2 and wire_type == 2:  # ParallelStrategys
            for inner, inner_type, inner_value, _ in iterate_fields(data, *value):
                if inner == 1 and inner_type == 0:
                    return inner_value
            return 0
    return 0


def _renamed_layout(data, item_span, stage):
    parts = []
    for number, wire_type, value, _ in iterate_fields(data, *item_span):
        if number == 1 and wire_type == 2:
            name = bytes(data[value[0]:value[1]]).decode("utf-8")
            parts.append(length_delimited(1, f"{stage}-{name}".encode("utf-8")))
        elif wire_type == 2:
            parts.append(length_delimited(number, bytes(data[value[0]:value[1]])))
        elif wire_type == 0:
            parts.append(encode_varint(number << 3) + encode_varint(value))
        else:
            raise ValueError(f"merge_pipeline_strategys: unexpected wire type {wire_type} in a layout item.")
    return b"".join(parts)


def _merge_protobuf(files, destination):
    strategies, layouts, merged = [], [], set()
    for path in files:
        with open(path, "rb") as handle:
            data = handle.read()
        items = [value for number, wire_type, value, _ in iterate_fields(data) if number == 2 and wire_type == 2]
        layout_spans = [value for number, wire_type, value, _ in iterate_fields(data)
                        if number == 3 and wire_type == 2]
        if not items or not layout_spans:
            raise ValueError(f"The strategy file {path} is empty")
        stage = _stage_of_protobuf(data, items[0])
        if stage in merged:
            continue
        strategies.extend(bytes(data[start:end]) for start, end in items)
        layouts.extend(_renamed_layout(data, span, stage) for span in layout_spans)
        merged.add(stage)
    content = encode_varint(1 << 3) + encode_varint(1)
    content += b"".join(length_delimited(2, item) for item in strategies)
    content += b"".join(length_delimited(3, item) for item in layouts)
    write_atomic(destination, content, mode=0o644)


def _merge_json(files, destination):
    result = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    merged = set()
    for path in files:
        with open(path, encoding="utf-8") as handle:
            content = json.load(handle)
        strategies = content.get("parallel_strategy_item")
        layouts = content.get("parallel_layout_item")
        if not strategies or not layouts:
            raise ValueError(f"The strategy file {path} is empty")
        stage = next(iter(strategies.values())).get("stage")
        if stage in merged:
            continue
        result["parallel_layout_item"].update({f"{stage}-{name}": layout for name, layout in layouts.items()})
        result["parallel_strategy_item"].update(strategies)
        merged.add(stage)
    write_atomic(destination, json.dumps(result).encode("utf-8"), mode=0o644)


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """Merge the strategy files (all ``.ckpt`` or all ``.json``) of ``src_strategy_dirs`` into one.

    Args:
        src_strategy_dirs (str): the folder holding every pipeline stage's strategy file.
        dst_strategy_file (str): the merged file to write (its folder is created).

    Raises:
        NotADirectoryError: ``src_strategy_dirs`` is not a folder.
        ValueError: the folder mixes formats, or a file has no strategies.
    """
    destination = os.path.abspath(os.path.normpath(os.fspath(dst_strategy_file)))
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    source = os.fspath(src_strategy_dirs)
    if not os.path.isdir(source):
        raise NotADirectoryError(f"src_strategy_dirs {source} is not a directory.")
    protobuf_files = sorted(glob.glob(os.path.join(source, "*.ckpt")))
    json_files = sorted(glob.glob(os.path.join(source, "*.json")))
    if protobuf_files and json_files:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    if protobuf_files:
        _merge_protobuf(protobuf_files, destination)
    else:
        _merge_json(json_files, destination)

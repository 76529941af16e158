"""Dataset nodes and samplers in MindSpore's pipeline JSON (both directions).

A node is ``{"op_type": ..., "children": [...], <its arguments>}`` with MindSpore's key names;
paths are written absolute (as MindSpore's realpath), samplers as ``{"sampler_name": ...}``.
"""
import os

import sporax.dataset as ds
from sporax.dataset.core import config
from sporax.dataset.engine import samplers as sampling
from sporax.dataset.engine import serdes_ops

_QUEUE = 16  # MindSpore's connector queue size, written for the nodes that carry one
_SHUFFLE_CODES = {False: 0, sampling.Shuffle.FALSE: 0, sampling.Shuffle.FILES: 1,
                  True: 2, None: 2, sampling.Shuffle.GLOBAL: 2}
_SHUFFLE_MODES = {0: False, 1: sampling.Shuffle.FILES, 2: sampling.Shuffle.GLOBAL}


def _workers(node):
    return node.num_parallel_workers or config.get_num_parallel_workers()


# -- samplers ---------------------------------------------------------------------------------
def sampler_to_json(sampler):
    name = type(sampler).__name__
    count = sampler.num_samples or 0
    if name == "SequentialSampler":
        out = {"num_samples": count, "start_index": sampler.start_index}
    elif name == "RandomSampler":
        out = {"num_samples": count, "replacement": sampler.replacement,
               "reshuffle_each_epoch": True, "shuffle_mode": 2}
    elif name == "DistributedSampler":
        out = {"even_dist": True, "num_samples": count, "num_shards": sampler.num_shards,
               "offset": sampler.offset, "seed": config.get_seed() + 1,
               "shard_id": sampler.shard_id, "shuffle_mode": 2 if sampler.shuffle else 0}
    elif name in ("SubsetSampler", "SubsetRandomSampler"):
        out = {"indices": [int(i) for i in sampler.indices_list], "num_samples": count}
    elif name == "WeightedRandomSampler":
        out = {"num_samples": count, "replacement": sampler.replacement,
               "weights": [float(w) for w in sampler.weights]}
    elif name == "PKSampler":
        out = {"num_samples": count, "num_val": sampler.num_val, "shuffle": sampler.shuffle}
    else:
        raise NotImplementedError(f"serialize: the sampler {name} (a user-defined sampler) cannot be "
                                  "written to MindSpore's pipeline JSON.")
    out["sampler_name"] = name
    if sampler.child_sampler is not None:
        out["child_sampler"] = [sampler_to_json(sampler.child_sampler)]
    return out


def sampler_from_json(entry):
    name = entry.get("sampler_name")
    count = entry.get("num_samples") or None
    if name == "SequentialSampler":
        sampler = sampling.SequentialSampler(entry.get("start_index", 0), count)
    elif name == "RandomSampler":
        sampler = sampling.RandomSampler(entry.get("replacement", False), count)
    elif name == "DistributedSampler":
        sampler = sampling.DistributedSampler(entry["num_shards"], entry["shard_id"],
                                              entry.get("shuffle_mode", 2) != 0, count,
                                              entry.get("offset", -1))
    elif name == "SubsetSampler":
        sampler = sampling.SubsetSampler(entry["indices"], count)
    elif name == "SubsetRandomSampler":
        sampler = sampling.SubsetRandomSampler(entry["indices"], count)
    elif name == "WeightedRandomSampler":
        sampler = sampling.WeightedRandomSampler(entry["weights"], count,
                                                 entry.get("replacement", True))
    elif name == "PKSampler":
        sampler = sampling.PKSampler(entry["num_val"], shuffle=entry.get("shuffle", False))
    else:
        raise RuntimeError(f"Invalid data, unsupported sampler: {name}.")
    for child in entry.get("child_sampler", []):
        sampler.add_child(sampler_from_json(child))
    return sampler


# -- caches -------------------------------------------------------------------------------------
def cache_to_json(cache):
    return {"cache_memory_size": cache.size,
            "cache_prefetch_size": cache.prefetch_size or 20,
            "hostname": cache.hostname or "127.0.0.1",
            "num_connections": cache.num_connections or 12,
            "port": cache.port or 50052, "session_id": cache.session_id, "spill": cache.spilling}


def cache_from_json(entry, caches):
    """One DatasetCache per session in a document, shared by the nodes that name it."""
    if entry is None:
        return None
    key = entry["session_id"]
    if key not in caches:
        caches[key] = ds.DatasetCache(
            entry["session_id"], entry.get("cache_memory_size", 0), entry.get("spill", False),
            entry.get("hostname"), entry.get("port"), entry.get("num_connections"),
            entry.get("cache_prefetch_size"))
    return caches[key]


# -- nodes -------------------------------------------------------------------------------------
def _source(node, **fields):
    out = {"connector_queue_size": _QUEUE, "num_parallel_workers": _workers(node)}
    out.update(fields)
    return out


def node_fields(node, identify):
    """(op_type, the node's own JSON fields) for a sporax dataset node."""
    name = type(node).__name__
    if name in ("MnistDataset", "FashionMnistDataset", "KMnistDataset", "Cifar10Dataset",
                "Cifar100Dataset"):
        return name, _source(node, dataset_dir=os.path.realpath(node.dataset_dir),
                             sampler=sampler_to_json(node.sampler), usage=node.usage)
    if name == "ImageFolderDataset":
        return name, _source(node, class_indexing=dict(node.class_indexing_arg or {}),
                             dataset_dir=os.path.realpath(node.dataset_dir), decode=node.decode,
                             extensions=list(node.extensions or []), recursive=False,
                             sampler=sampler_to_json(node.sampler))
    if name == "TextFileDataset":
        return name, _source(node, dataset_files=[os.path.realpath(f) for f in node.dataset_files],
                             num_samples=node.num_samples or 0, num_shards=node.num_shards or 1,
                             shard_id=node.shard_id or 0, shuffle=_SHUFFLE_CODES[node.shuffle_flag])
    if name in ("GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"):
        # MindSpore writes the node without its data (it cannot be rebuilt from the JSON).
        fields = {"connector_queue_size": _QUEUE, "num_parallel_workers": _workers(node)}
        if identify:
            fields["id"] = id(node)
        return "GeneratorDataset", fields
    if name == "MapDataset":
        if node.callbacks:
            raise NotImplementedError("serialize: map callbacks cannot be written to JSON.")
        return "Map", {"callback": [], "connector_queue_size": _QUEUE,
                       "input_columns": list(node.input_columns),
                       "num_parallel_workers": _workers(node),
                       "operations": [serdes_ops.op_to_json(op, identify) for op in node.operations],
                       "output_columns": list(node.output_columns)}
    if name == "BatchDataset":
        if node.per_batch_map is not None:
            raise NotImplementedError("serialize: batch(per_batch_map=...) holds a Python function, "
                                      "which cannot be written to JSON.")
        return "Batch", {"batch_size": node.batch_size, "connector_queue_size": _QUEUE,
                         "drop_remainder": node.drop_remainder, "input_columns": [],
                         "num_parallel_workers": _workers(node), "output_columns": []}
    if name == "ShuffleDataset":
        return "Shuffle", {"buffer_size": node.buffer_size, "reset_each_epoch": True}
    if name in ("RepeatDataset", "TakeDataset", "SkipDataset"):
        return name[:-len("Dataset")], {"count": node.count}
    if name == "ProjectDataset":
        return "Project", {"columns": node.get_col_names()}
    if name == "RenameDataset":
        pairs = [(old, new) for old, new in zip(node.children[0].get_col_names(),
                                                node.get_col_names()) if old != new]
        return "Rename", {"input_columns": [old for old, _ in pairs],
                          "output_columns": [new for _, new in pairs]}
    if name == "ZipDataset":
        return "Zip", {"connector_queue_size": _QUEUE, "num_parallel_workers": _workers(node)}
    if name == "ConcatDataset":
        sizes = [child.get_dataset_size() for child in node.children]
        return "Concat", {"children_flag_and_nums": [[0, size] for size in sizes],
                          "children_sizes": sizes,
                          "children_start_end_index": [[-1, -1] for _ in sizes],
                          "sampler": {"num_samples": 0, "sampler_name": "SequentialSampler",
                                      "start_index": 0}}
    raise NotImplementedError(f"serialize: {name} cannot be written to MindSpore's pipeline JSON "
                              "by sporax.")


def _sampler_argument(entry):
    return {"sampler": sampler_from_json(entry["sampler"])} if "sampler" in entry else {}


def _workers_argument(entry):
    return entry.get("num_parallel_workers") or None


def build(op_type, entry, children, caches):
    """The sporax node for one JSON node whose children are already built."""
    cache = cache_from_json(entry.get("cache"), caches)
    if op_type in ("MnistDataset", "FashionMnistDataset", "KMnistDataset", "Cifar10Dataset",
                   "Cifar100Dataset"):
        return getattr(ds, op_type)(entry["dataset_dir"], usage=entry.get("usage"),
                                    num_parallel_workers=_workers_argument(entry), cache=cache,
                                    **_sampler_argument(entry))
    if op_type == "ImageFolderDataset":
        return ds.ImageFolderDataset(entry["dataset_dir"],
                                     num_parallel_workers=_workers_argument(entry),
                                     extensions=entry.get("extensions") or None,
                                     class_indexing=entry.get("class_indexing") or None,
                                     decode=entry.get("decode", False), cache=cache,
                                     **_sampler_argument(entry))
    if op_type == "TextFileDataset":
        shards = entry.get("num_shards", 1)
        return ds.TextFileDataset(entry["dataset_files"], entry.get("num_samples") or None,
                                  _workers_argument(entry), _SHUFFLE_MODES[entry.get("shuffle", 2)],
                                  shards if shards > 1 else None,
                                  entry.get("shard_id", 0) if shards > 1 else None, cache)
    child = children[0] if children else None
    if op_type == "Map":
        operations = [serdes_ops.op_from_json(op) for op in entry["operations"]]
        return child.map(operations, entry.get("input_columns") or None,
                         entry.get("output_columns") or None, _workers_argument(entry),
                         cache=cache)
    if op_type == "Batch":
        return child.batch(entry["batch_size"], entry.get("drop_remainder", False),
                           _workers_argument(entry))
    if op_type == "Shuffle":
        return child.shuffle(entry["buffer_size"])
    if op_type in ("Repeat", "Take", "Skip"):
        return getattr(child, op_type.lower())(entry["count"])
    if op_type == "Project":
        return child.project(entry["columns"])
    if op_type == "Rename":
        return child.rename(entry["input_columns"], entry["output_columns"])
    if op_type == "Zip":
        return ds.zip(tuple(children))
    if op_type == "Concat":
        return children[0].concat(children[1:])
    raise RuntimeError(f"Invalid data, unsupported operation type: {op_type}.")


KNOWN_OP_TYPES = ("MnistDataset", "FashionMnistDataset", "KMnistDataset", "Cifar10Dataset",
                  "Cifar100Dataset", "ImageFolderDataset", "TextFileDataset", "Map", "Batch",
                  "Shuffle", "Repeat", "Take", "Skip", "Project", "Rename", "Zip", "Concat")

"""Argument checks with MindSpore's error types and messages that say what to pass instead."""

import os

import numpy as np
INT32_MAX = 2147483647


def integer(where, name, value, low, high, low_open=False):
    """``value`` must be an int in [low, high] (or (low, high] with ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_numpy_int(value):
        raise TypeError(f"{where}: Argument {name} with value {value!r} is not of type [<class "
                        f"'int'>], but got {type(value)}.")
    value = int(value)
    if (value <= low if low_open else value < low) or value > high:
        left = "(" if low_open else "["
        raise ValueError(f"{where}: Input {name} is not within the required interval of "
                         f"{left}{low}, {high}].")
    return value


def _is_numpy_int(value):
    return isinstance(value, np.integer)


def boolean(where, name, value):
    """``value`` must be a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{where}: Argument {name} with value {value!r} is not of type [<class "
                        f"'bool'>], but got {type(value)}.")
    return value


def column_list(where, name, value, allow_none=True):
    """A column name or list of names, returned as a list (None stays None)."""
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"{where}: {name} must be given.")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise TypeError(f"{where}: {name} must be a column name (str) or a non-empty list of "
                        f"column names, but got {value!r}.")
    for item in value:
        if not isinstance(item, str) or not item:
            raise TypeError(f"{where}: every name in {name} must be a non-empty str, but got "
                            f"{item!r}.")
    if len(set(value)) != len(value):
        raise ValueError(f"{where}: {name} has duplicate column names: {list(value)}.")
    return list(value)


def missing_columns(where, name, wanted, available):
    """A RuntimeError naming the first column of ``wanted`` missing from ``available``, or None.

    An operation naming a column its input lacks (map/filter/batch input_columns, project,
    rename) is built as in MindSpore 2.10, which raises this RuntimeError only when the pipeline
    runs or is asked its column names; the node keeps the error and the columns that exist.
    """
    for column in wanted:
        if column not in available:
            return RuntimeError(f"{where}: column '{column}' given in {name} does not exist; the "
                                f"dataset's columns are {list(available)}.")
    return None


def existing_columns(where, name, wanted, available):
    """Every column in ``wanted`` must be one of ``available``."""
    for column in wanted:
        if column not in available:
            raise ValueError(f"{where}: column '{column}' given in {name} does not exist; the "
                             f"dataset's columns are {list(available)}.")


def workers(where, value):
    """num_parallel_workers: None (config default) or a positive int.

    Below 1 raises MindSpore's ValueError, whose first line names this machine's CPU count. Above the
    CPU count MindSpore raises the same error, but sporax accepts the value (its pipelines clamp the
    thread count), so a zoo script's ``num_parallel_workers=8`` still runs on a smaller machine."""
    if value is None:
        return None
    value = integer(where, "num_parallel_workers", value, -INT32_MAX - 1, INT32_MAX)
    if value < 1:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {os.cpu_count()}!\n"
                         f"{where}: num_parallel_workers must be at least 1, but got {value}.")
    return value


def shards(where, num_shards, shard_id):
    """num_shards / shard_id must come together, with 0 <= shard_id < num_shards."""
    if num_shards is None and shard_id is None:
        return
    if num_shards is None or shard_id is None:
        raise ValueError(f"{where}: num_shards and shard_id need to be passed in together.")
    integer(where, "num_shards", num_shards, 1, INT32_MAX)
    integer(where, "shard_id", shard_id, 0, INT32_MAX)
    if shard_id >= num_shards:
        raise ValueError(f"{where}: shard_id should be less than num_shards (got shard_id="
                         f"{shard_id}, num_shards={num_shards}).")

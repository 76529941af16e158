"""Test order of tests/ops: the op table's checks run entry by entry."""


def _entry_name(item):
    """The op-table entry a test of test_op_table.py checks (None for a test of no entry)."""
    entry = getattr(item, "callspec", None) and item.callspec.params.get("entry")
    return getattr(entry, "name", None)


def pytest_collection_modifyitems(items):
    """Runs test_op_table.py's checks of one entry one after another (each check's own order kept).

    Every check of an entry runs the op eagerly on its float32 samples (the reference check, the compiled faces'
    dtypes, the Cells), and each eager (shape, dtype) compiles JAX kernels that JAX caches a few thousand deep:
    check by check over the whole table (about 700 entries), an entry's kernels were evicted before its next
    check and compiled again. Entry by entry they are still cached.
    """
    positions = [index for index, item in enumerate(items)
                 if item.path.name == "test_op_table.py" and item.path.parent.name == "ops"]
    block = [items[index] for index in positions]
    first = {}
    for item in block:
        first.setdefault(_entry_name(item), len(first))
    block.sort(key=lambda item: first[_entry_name(item)])  # stable: an entry's checks keep the file's order
    for index, item in zip(positions, block):
        items[index] = item

"""Bad-argument cases for public ops and Cells, and a crash-safe runner for them.

``cases(name, function, sample_args)`` derives, from one valid call, calls with wrong dtypes,
ranks, empty tensors, NaN/inf, None, lists, strings, and negative or huge shapes and sizes.
It depends only on (name, callable, sample args), so an op table can drive it.

``run_in_children(ids)`` runs cases in child processes (``python -m tests.ops.fuzz_cases``),
each case announced before it runs, so that a case that aborts the process (XLA's fatal
errors) or hangs is recorded as such and the sweep goes on in a fresh child.
"""
import json
import math
import os
import queue
import subprocess
import sys
import threading

import numpy as np

HUGE = 2 ** 62
# Text that only JAX, XLA or NumPy's own errors hold: a message with it is not sporax's.
RAW_MARKERS = ("broadcast_in_dim", "jax", "XLA", "xla", "MLIR", "StatusOr", "RESOURCE_EXHAUSTED",
               "Traced<", "ShapedArray", "lax.", "data type '", "Cannot interpret")
CLEAR_TYPES = ("TypeError", "ValueError", "RuntimeError", "IndexError", "NotImplementedError")


def _tensor(array):
    from sporax import Tensor

    return Tensor(np.asarray(array))


def _table():
    """(name, callable, sample args): common functional ops and Cells with one valid call, then every
    op-table entry (its first float32 sample) the list does not name."""
    return _common() + _from_op_table(_common())


def _from_op_table(common):
    import functools

    from sporax.ops import op_table

    named = {name for name, _, _ in common}
    rows = []
    for entry in op_table.entries():
        first = list(entry.signature.parameters)[:len(entry.inputs)]
        if entry.name in named or entry.samples is None or first != list(entry.inputs):
            continue  # the case generator varies positional Tensor arguments: inputs must come first
        if entry.dtypes == op_table.SCALAR:
            continue  # ops of Python values (scalar_add) take no Tensor to vary: test_python_value_ops checks them
        sample = entry.samples("float32")[0]
        function = functools.partial(entry.function, **sample.kwargs) if sample.kwargs else entry.function
        # a Tensor-list input (``concat``'s) is a tuple of arrays in the sample, a list here (varied as a list)
        rows.append((entry.name, function, tuple(list(a) if isinstance(a, tuple) else a for a in sample.arrays)))
    return rows


def _common():
    from sporax import nn, ops

    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 6
    image = np.ones((1, 1, 5, 5), np.float32)
    weight = np.ones((2, 1, 3, 3), np.float32)
    logits = np.ones((2, 3), np.float32)
    labels = np.array([0, 2], np.int32)
    return [
        ("abs", ops.abs, (x,)), ("add", ops.add, (x, x)), ("mul", ops.mul, (x, x)),
        ("sub", ops.sub, (x, x)), ("div", ops.div, (x, x)), ("exp", ops.exp, (x,)),
        ("log", ops.log, (x,)), ("sqrt", ops.sqrt, (x,)), ("matmul", ops.matmul, (x, x.T)),
        ("relu", ops.relu, (x,)), ("sigmoid", ops.sigmoid, (x,)), ("tanh", ops.tanh, (x,)),
        ("softmax", ops.softmax, (x, -1)), ("log_softmax", ops.log_softmax, (x, -1)),
        ("sum", ops.sum, (x, 1)), ("mean", ops.mean, (x, 1)), ("argmax", ops.argmax, (x, 1)),
        ("cumsum", ops.cumsum, (x, 1)), ("reshape", ops.reshape, (x, (3, 2))),
        ("transpose", ops.transpose, (x, (1, 0))), ("concat", ops.concat, ([x, x], 0)),
        ("stack", ops.stack, ([x, x], 0)), ("squeeze", ops.squeeze, (x[:1], 0)),
        ("expand_dims", ops.expand_dims, (x, 0)), ("broadcast_to", ops.broadcast_to, (x, (2, 2, 3))),
        ("tile", ops.tile, (x, (2, 1))), ("zeros", ops.zeros, ((2, 3),)),
        ("ones", ops.ones, ((2, 3),)), ("full", ops.full, ((2, 3), 1.0)),
        ("fill", ops.fill, (None, (2, 3), 1.0)), ("arange", ops.arange, (0, 6, 1)),
        ("eye", ops.eye, (3, 3)), ("randn", ops.randn, ((2, 3),)),
        ("gather", ops.gather, (x, np.array([0, 1], np.int32), 1)),
        ("where", ops.where, (x > 0.3, x, x)), ("clamp", ops.clamp, (x, 0.1, 0.5)),
        ("one_hot", ops.one_hot, (labels, 3)), ("topk", ops.topk, (x, 2)),
        ("sort", ops.sort, (x,)), ("cross_entropy", ops.cross_entropy, (logits, labels)),
        ("mse_loss", ops.mse_loss, (x, x)), ("conv2d", ops.conv2d, (image, weight)),
        ("max_pool2d", ops.max_pool2d, (image, 2)),
        ("Dense", nn.Dense(3, 2), (x,)), ("Conv2d", nn.Conv2d(1, 2, 3), (image,)),
        ("Embedding", nn.Embedding(5, 3), (labels,)), ("ReLU", nn.ReLU(), (x,)),
        ("Softmax", nn.Softmax(), (x,)), ("LayerNorm", nn.LayerNorm((3,)), (x,)),
        ("BatchNorm2d", nn.BatchNorm2d(1), (image,)),
        ("CrossEntropyLoss", nn.CrossEntropyLoss(), (logits, labels)),
        ("MSELoss", nn.MSELoss(), (x, x)),
    ]


def _fix_fill(name, args):
    if name == "fill":
        from sporax import float32

        return (float32,) + tuple(args[1:])
    return args


def _tensor_variants(array):
    """(label, replacement) for a Tensor argument. Replacements stay NumPy arrays until the call
    (``_as_call_args``): listing the ~7300 cases must not put each array on the device (36 s)."""
    array = np.asarray(array)
    yield "int32", array.astype(np.int32)
    yield "bool", array.astype(bool)
    yield "complex64", array.astype(np.complex64)
    yield "0-d", np.asarray(array.reshape(-1)[0] if array.size else 0, array.dtype)  # an empty sample: a zero
    yield "5-d", np.ones((1, 1, 1, 1, 2), array.dtype)
    yield "empty", np.zeros((0,) + array.shape[1:], array.dtype)
    if array.dtype.kind == "f":
        yield "nan", np.full(array.shape, np.nan, array.dtype)
        yield "inf", np.full(array.shape, np.inf, array.dtype)
    yield "None", None
    yield "list", array.tolist()
    yield "str", "abc"


def _shape_variants(value):
    """(label, replacement) for an int or a tuple of ints (a shape, an axis, a size)."""
    if isinstance(value, tuple):
        yield "negative dim", (-3,) + value[1:]
        yield "huge dim", (HUGE,) + value[1:]
        yield "huge shape", (HUGE,) + value
        yield "2**40 dim", (2 ** 40,) + value[1:]
        yield "float dim", (1.5,) + value[1:]
    else:
        yield "negative", -7
        yield "huge", HUGE
        yield "float", 1.5
    yield "None", None
    yield "str", "abc"


def cases(name, function, sample_args):
    """Every bad call derived from one valid call: a list of (label, args)."""
    args = _fix_fill(name, tuple(sample_args))
    result = []
    for position, value in enumerate(args):
        if isinstance(value, np.ndarray):
            variants = _tensor_variants(value)
        elif isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            variants = [("list of None", [None, None]), ("mixed ranks", [value[0], np.asarray(value[0][0])]),
                        ("empty list", [])]
        elif isinstance(value, (int, tuple)) and not isinstance(value, bool):
            variants = _shape_variants(value)
        else:
            continue
        for label, replacement in variants:
            bad = list(args)
            bad[position] = replacement
            result.append((f"arg{position} {label}", tuple(bad)))
    return result


def _as_call_args(args):
    return tuple(_tensor(a) if isinstance(a, np.ndarray) else
                 [_tensor(v) if isinstance(v, np.ndarray) else v for v in a]
                 if isinstance(a, list) else a for a in args)


def all_ids():
    """Every case of the table: (op name, case index, mode)."""
    return [(name, index, mode) for name, function, args in _table()
            for index in range(len(cases(name, function, args))) for mode in ("pynative", "graph")]


# A Cell's error may name the functional op it runs (CrossEntropyLoss -> 'cross_entropy').
# Table entries whose errors name the op the user called (ops.Einsum / ops.einsum run einsum_operands).
ALIASES = {"CrossEntropyLoss": ("cross_entropy",), "MSELoss": ("mse_loss",), "einsum_operands": ("Einsum",),
           "lu_factorization": ("LU",)}  # the Primitive the op table names it by


def _names_op(name, message):
    text = message.lower().replace("_", "")
    return any(alias.lower().replace("_", "") in text for alias in (name,) + ALIASES.get(name, ()))


def classify(name, error):
    """'clear' when ``error`` is a Python error naming the op without JAX's text, else 'raw'."""
    if error is None:
        return "returned"
    kind, message = error
    if kind in CLEAR_TYPES and _names_op(name, message) and not any(m in message for m in RAW_MARKERS):
        return "clear"
    return "raw"


def run_case(name, index, mode, table=None):
    """Call one case here; returns None or (error type name, message)."""
    import sporax as ms
    from sporax import Tensor

    table = table or {n: (f, a) for n, f, a in _table()}
    function, sample = table[name]
    label, args = cases(name, function, sample)[index]
    call_args = _as_call_args(args)
    try:
        if mode == "pynative":
            function(*call_args)
        else:
            tensors = [a for a in call_args if isinstance(a, Tensor)]

            def rebuild(values):
                values = iter(values)
                return [next(values) if isinstance(a, Tensor) else a for a in call_args]

            ms.jit(lambda *values: function(*rebuild(values)))(*tensors)
    except BaseException as error:  # noqa: BLE001 - classified, never hidden
        return type(error).__name__, str(error)
    return None


def _child(ids):
    table = {n: (f, a) for n, f, a in _table()}
    for name, index, mode in ids:
        print(json.dumps({"start": [name, index, mode]}), flush=True)
        if os.environ.get("SPORAX_FUZZ_ABORT"):  # lets the tests check that a crash is caught
            os.abort()
        error = run_case(name, index, mode, table)
        print(json.dumps({"done": [name, index, mode], "error": error}), flush=True)


def run_in_children(ids, case_timeout=60.0):
    """Run ``ids`` in child processes; returns {id: ('crash'|'hang'|'clear'|'raw'|'returned', detail)}."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    environment = dict(os.environ, JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"))
    environment["PYTHONPATH"] = os.pathsep.join([root, os.path.join(root, "src"),
                                                 environment.get("PYTHONPATH", "")])
    results, pending = {}, [tuple(i) for i in ids]
    while pending:
        # The ids go through stdin: thousands of them overflow a command line.
        child = subprocess.Popen([sys.executable, "-m", "tests.ops.fuzz_cases"], cwd=root, env=environment,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        child.stdin.write(json.dumps(pending))
        child.stdin.close()
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in child.stdout] + [lines.put(None)],
                         daemon=True).start()
        threading.Thread(target=child.stderr.read, daemon=True).start()
        current = None
        while True:
            try:
                line = lines.get(timeout=case_timeout if current else 120)
            except queue.Empty:
                child.kill()
                results[current] = ("hang", f"no answer in {case_timeout} s")
                break
            if line is None:
                child.wait()
                # a child that dies before its first case (an import error) fails that case
                failed = current if current is not None else pending[0] if pending[0] not in results else None
                if failed is not None:
                    results[failed] = ("crash", f"the process ended with status {child.returncode}")
                break
            record = json.loads(line)
            if "start" in record:
                current = tuple(record["start"])
            else:
                name = record["done"][0]
                error = record["error"]
                results[current] = (classify(name, error), error)
                current = None
        child.wait()
        pending = [i for i in pending if i not in results]
    return results


def ids_of(name, label, modes=("pynative", "graph")):
    """The ids of the case ``label`` (e.g. 'arg0 huge dim') of op ``name``."""
    table = {n: (f, a) for n, f, a in _table()}
    labels = [case_label for case_label, _ in cases(name, *table[name])]
    return [(name, labels.index(label), mode) for mode in modes]


# Calls that aborted the process, gave JAX's/NumPy's own errors or wrong results (issue 27).
FINDINGS = [("zeros", "arg0 huge dim"), ("arange", "arg1 huge"), ("broadcast_to", "arg1 huge shape"),
            ("tile", "arg1 huge shape"), ("one_hot", "arg1 huge"), ("eye", "arg0 huge"),
            ("zeros", "arg0 negative dim"), ("broadcast_to", "arg1 negative dim"),
            ("randn", "arg0 negative dim"), ("zeros", "arg0 2**40 dim"), ("softmax", "arg0 0-d"),
            ("cumsum", "arg0 0-d"), ("argmax", "arg0 complex64"),
            ("LayerNorm", "arg0 0-d"), ("BatchNorm2d", "arg0 int32"), ("MSELoss", "arg0 None")]


def sample_ids(count, seed=0):
    """The known findings and a fixed random sample of ``count`` other cases."""
    chosen = [i for name, label in FINDINGS for i in ids_of(name, label)]
    everything = [i for i in all_ids() if i not in chosen]
    rng = np.random.default_rng(seed)
    return chosen + [everything[i] for i in sorted(rng.choice(len(everything), count, replace=False))]


def counts(results):
    tally = {"calls": len(results)}
    for status, _ in results.values():
        tally[status] = tally.get(status, 0) + 1
    return tally


if __name__ == "__main__":
    _child([tuple(i) for i in json.loads(sys.stdin.read())])

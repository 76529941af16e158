"""What a first training step would cost evaluated op by op on the host, with no XLA compile of its own.

The per-op first step of ``first_step_profile.py --per-op`` (the step's jaxpr outside ``jax.jit``) compiles one
XLA program per distinct op (87 for the CIFAR ResNet-18 b32 step, ~5 CPU s): more than the whole step's one
compile. This script measures the other per-op route: the same jaxpr evaluated by NumPy (each JAX primitive
a NumPy call, no compile), with only the FFI calls (sporax's oneDNN convolutions and optimizer updates)
still run by JAX, one small program per distinct call. It runs the evaluation ``--rounds`` times in one
process: round 0 includes those FFI programs' compiles, later rounds are the evaluation alone (what FFI
entry points callable from the host, without XLA, would leave); ``--numpy-momentum`` computes the Momentum
update's calls in NumPy (their XLA programs are then not compiled), ``--host-convolutions`` runs the oneDNN
convolutions through the kernels' host entry points (``SporaxConvForwardHost``/``SporaxConvBackwardHost``); with
both, nothing compiles. Then it compares the outputs (loss, new
weights, momenta) with the compiled step's, and, as the scale of that difference, the compiled step's own
outputs for inputs perturbed by 1e-6 relative noise. Run it in a fresh process with an empty cache::

    SPORAX_COMPILATION_CACHE_DIR=$(mktemp -d) PYTHONPATH=src python3 benchmarks/first_step_host_eval.py resnet18

This is a measuring tool, not sporax's execution path: it covers the primitives of the suite models' GRAPH
train steps (an unknown primitive raises). Results: ``first_step.md`` (session 26).
"""
import argparse
import collections
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _broadcast_in_dim(x, shape, broadcast_dimensions, **_):
    full = [1] * len(shape)
    for axis, dimension in enumerate(broadcast_dimensions):
        full[dimension] = np.shape(x)[axis]
    return np.broadcast_to(np.reshape(x, full), shape)


def _dot_general(a, b, dimension_numbers, preferred_element_type=None, **_):
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    lhs, rhs, out = [None] * a.ndim, [None] * b.ndim, []
    for i, j in zip(lhs_batch, rhs_batch):
        lhs[i] = rhs[j] = next(letters)
        out.append(lhs[i])
    for i, j in zip(lhs_contract, rhs_contract):
        lhs[i] = rhs[j] = next(letters)
    for names in (lhs, rhs):  # lax's order: batch, then the left's free axes, then the right's
        for axis, name in enumerate(names):
            if name is None:
                names[axis] = next(letters)
                out.append(names[axis])
    result = np.einsum(f"{''.join(lhs)},{''.join(rhs)}->{''.join(out)}", a, b, optimize=True)
    return result.astype(preferred_element_type or result.dtype, copy=False)


def _div(a, b):
    if np.issubdtype(np.result_type(a, b), np.integer):  # lax rounds integer quotients toward zero
        return np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))
    return np.divide(a, b)


def _select_n(predicate, *cases):
    return np.where(predicate, cases[1], cases[0]) if len(cases) == 2 else np.choose(predicate, cases)


def _iota(dtype, shape, dimension, **_):
    full = [1] * len(shape)
    full[dimension] = shape[dimension]
    return np.broadcast_to(np.arange(shape[dimension], dtype=dtype).reshape(full), shape)


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


def _momentum(weight, moment, rate, gradient, momentum, nesterov, **_):
    """sporax's Momentum kernel (``momentum_update.cc``) in NumPy, without its fused multiply-adds."""
    new_moment = moment * momentum + gradient
    direction = new_moment * momentum + gradient if nesterov else new_moment
    return [weight - direction * rate, new_moment]


HOST_CONVOLUTIONS = {"sporax_onednn_conv_forward": "SporaxConvForwardHost",
                     "sporax_onednn_conv_backward": "SporaxConvBackwardHost"}


def _host_convolution(equation, inputs):
    """An oneDNN convolution FFI call run by the kernels' host entry points (``conv_onednn.cc``), no XLA."""
    import ctypes
    from sporax.ops.lowering import onednn
    function = getattr(onednn.library(), HOST_CONVOLUTIONS[equation.params["target_name"]])
    function.restype = ctypes.c_int64
    attributes = dict(equation.params["attributes"])
    numbers = np.array([attributes[key] for key in ("stride_h", "stride_w", "pad_top", "pad_bottom", "pad_left",
                                                    "pad_right")], np.int64)
    operands = [np.ascontiguousarray(x, np.float32) for x in inputs]
    results = [np.empty(var.aval.shape, np.float32) for var in equation.outvars]
    pointer = ctypes.c_void_p
    shapes = [np.array(operands[0].shape, np.int64), np.array(operands[1].shape, np.int64)]
    arguments = [pointer(operands[0].ctypes.data), pointer(shapes[0].ctypes.data), pointer(operands[1].ctypes.data),
                 pointer(shapes[1].ctypes.data)]
    if len(operands) == 3:
        arguments.append(pointer(operands[2].ctypes.data))
    arguments += [pointer(numbers.ctypes.data)] + [pointer(result.ctypes.data) for result in results]
    if function(*arguments) != 0:
        raise RuntimeError(f"{HOST_CONVOLUTIONS[equation.params['target_name']]} failed")
    return results


PRIMITIVES = {  # name -> (NumPy function, whether it takes the equation's parameters)
    "mul": (np.multiply, False), "add": (np.add, False), "add_any": (np.add, False), "sub": (np.subtract, False),
    "div": (_div, False), "neg": (np.negative, False), "max": (np.maximum, False), "exp": (np.exp, False),
    "log": (np.log, False), "square": (np.square, False), "rsqrt": (_rsqrt, False), "sqrt": (np.sqrt, False),
    "abs": (np.abs, False), "gt": (np.greater, False),
    "eq": (np.equal, False), "select_n": (_select_n, False), "copy": (np.array, False),
    "stop_gradient": (lambda x: x, False),
    "convert_element_type": (lambda x, new_dtype, **_: np.asarray(x).astype(new_dtype), True),
    "reshape": (lambda x, new_sizes, **_: np.reshape(x, new_sizes), True),
    "broadcast_in_dim": (_broadcast_in_dim, True),
    "transpose": (lambda x, permutation: np.transpose(x, permutation), True),
    "reduce_sum": (lambda x, axes, **_: np.sum(x, axis=tuple(axes)), True),
    "reduce_max": (lambda x, axes, **_: np.max(x, axis=tuple(axes)), True),
    "dot_general": (_dot_general, True), "iota": (_iota, True),
}
NESTED = {"jit": "jaxpr", "pjit": "jaxpr", "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}


class HostEvaluator:
    """Evaluates a jaxpr with NumPy, timing each primitive (main-thread CPU) and counting calls."""

    def __init__(self, numpy_momentum=False, host_convolutions=False):
        self.numpy_momentum, self.host_convolutions = numpy_momentum, host_convolutions
        self.seconds, self.calls = collections.Counter(), collections.Counter()

    def run(self, jaxpr, consts, arguments):
        import jax.numpy as jnp
        from jax.extend.core import Literal
        env = dict(zip(jaxpr.constvars, map(np.asarray, consts)))
        env.update(zip(jaxpr.invars, arguments))

        def read(var):
            return np.asarray(var.val, var.aval.dtype) if isinstance(var, Literal) else env[var]
        # A value is dropped after its last use, so that NumPy's next arrays reuse its memory instead of touching
        # fresh pages (the whole step's intermediates, kept to the end, page-faulted ~2 CPU s in a cold round).
        last_use, kept = {}, {var for var in jaxpr.outvars if not isinstance(var, Literal)}
        for index, equation in enumerate(jaxpr.eqns):
            for var in equation.invars:
                if not isinstance(var, Literal):
                    last_use[var] = index
        dead = collections.defaultdict(list)
        for var, index in last_use.items():
            if var not in kept:
                dead[index].append(var)
        for index, equation in enumerate(jaxpr.eqns):
            name, inputs = equation.primitive.name, [read(var) for var in equation.invars]
            if name in NESTED:
                closed = equation.params[NESTED[name]]
                outputs = self.run(closed.jaxpr, closed.consts, inputs)
            else:
                started = time.thread_time()
                if name == "ffi_call" and equation.params["target_name"] == "sporax_momentum_update" and \
                        self.numpy_momentum:
                    label = "momentum in NumPy"
                    outputs = _momentum(*inputs, **dict(equation.params["attributes"]))
                elif name == "ffi_call" and equation.params["target_name"] in HOST_CONVOLUTIONS and \
                        self.host_convolutions:
                    label = "host " + equation.params["target_name"]
                    outputs = _host_convolution(equation, inputs)
                elif name == "ffi_call":
                    label = "ffi " + equation.params["target_name"]
                    outputs = [np.asarray(value) for value in
                               equation.primitive.bind(*map(jnp.asarray, inputs), **equation.params)]
                else:
                    label = name
                    function, with_params = PRIMITIVES[name]
                    params = {key: value for key, value in equation.params.items()
                              if key not in ("sharding", "out_sharding", "accumulation_type", "weak_type",
                                             "dimensions")}
                    result = np.asarray(function(*inputs, **params) if with_params else function(*inputs))
                    outputs = [result.astype(equation.outvars[0].aval.dtype, copy=False)]
                self.seconds[label] += time.thread_time() - started
                self.calls[label] += 1
            env.update(zip(equation.outvars, outputs))
            for var in dead[index]:
                del env[var]
            del inputs, outputs
        return [read(var) for var in jaxpr.outvars]


def relative_differences(reference, other):
    """Per output: max |difference| / max |reference|, worst first, with the output's index and shape."""
    found = []
    for index, (a, b) in enumerate(zip(reference, other)):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        if a.size:
            found.append((float(np.max(np.abs(a - b))) / (1e-30 + float(np.max(np.abs(a)))), index, a.shape))
    return sorted(found, reverse=True)


def describe(found):
    return (f"worst {found[0][0]:.2e} (output {found[0][1]}, {found[0][2]}), "
            f"median {found[len(found) // 2][0]:.2e} over {len(found)} outputs")


def measure(program, arrays, rounds, numpy_momentum, host_convolutions):
    import jax
    from jax import monitoring
    written = [state._array for state in program.written]
    readonly = [state._array for state in program.readonly]
    closed = jax.make_jaxpr(program._final)(written, readonly, arrays)
    leaves = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves((written, readonly, arrays))]
    compiles = collections.Counter()
    monitoring.register_event_duration_secs_listener(
        lambda event, duration, fun_name="", **_: compiles.update(
            [fun_name] if event == "/jax/core/compile/backend_compile_duration" else []))
    outputs = None
    for index in range(rounds):
        evaluator, before = HostEvaluator(numpy_momentum, host_convolutions), sum(compiles.values())
        wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        outputs = evaluator.run(closed.jaxpr, closed.consts, leaves)
        print(f"round {index}: wall {time.perf_counter() - wall:.3f} s, CPU {time.process_time() - cpu:.3f} s "
              f"(main thread {time.thread_time() - main:.3f}), XLA compiles {sum(compiles.values()) - before}, "
              f"load {os.getloadavg()[0]:.1f}")
        print("  main-thread CPU s / calls: " + ", ".join(
            f"{label} {seconds:.3f}/{evaluator.calls[label]}" for label, seconds in evaluator.seconds.most_common()))
    compiled = jax.jit(program._final)
    reference = jax.tree_util.tree_leaves(compiled(written, readonly, arrays))
    print(f"host evaluation against the compiled step: {describe(relative_differences(reference, outputs))}; "
          f"loss {float(outputs[0]):.7f} against {float(reference[0]):.7f}")
    noise = np.random.default_rng(0)
    perturbed = [np.asarray(a) * (1 + 1e-6 * noise.standard_normal(np.shape(a))).astype(np.asarray(a).dtype)
                 if np.issubdtype(np.asarray(a).dtype, np.floating) else a for a in arrays]
    moved = jax.tree_util.tree_leaves(compiled(written, readonly, perturbed))
    print(f"the compiled step, inputs x (1 + 1e-6 noise): {describe(relative_differences(reference, moved))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=("mlp", "lenet5", "resnet18"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--numpy-momentum", action="store_true",
                        help="the Momentum update's FFI calls in NumPy too (no XLA program for them)")
    parser.add_argument("--host-convolutions", action="store_true",
                        help="the oneDNN convolutions through their host entry points (no XLA program for them)")
    args = parser.parse_args()
    import sporax  # noqa: F401  (JAX's options as sporax sets them)

    import first_step
    import recurrent
    from sporax.state import program as program_module

    class Done(Exception):
        pass

    def run(program, arrays, *_, **__):
        measure(program, arrays, args.rounds, args.numpy_momentum, args.host_convolutions)
        raise Done
    program_module.Program.run = run
    try:
        recurrent.sporax_runner(args.model, first_step.BATCH[args.model])(1)
    except Done:
        pass


if __name__ == "__main__":
    main()

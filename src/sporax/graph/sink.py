"""Data-sink loops: N steps of a Cell compiled into one ``lax.scan`` (DESIGN section 3).

``SinkLoop(network)(*stacked_inputs)`` runs ``network`` once per slice along the leading axis of
every Tensor input — N training steps in one device call, as MindSpore's loop sink — and returns
every step's outputs stacked along a new leading axis. The network's state (weights, optimizer
moments, BatchNorm statistics, the RNG key) is the scan's carry, and is written back once.

Example:
    >>> # loop = SinkLoop(train_one_step_cell); losses = loop(images_block, labels_block)
"""
import jax

from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import run_construct
from sporax.state.arguments import rebuild, signature, skeleton
from sporax.state.binding import Bound, bind_values, detach_outputs
from sporax.state.discovery import discover
from sporax.state.program import build_program
from sporax.state.scope import is_tracing


def _slice_template(value):
    """A stand-in for one step's argument: the Tensor with its leading (step) axis removed."""
    if isinstance(value, Tensor):
        return Tensor._wrap(jax.ShapeDtypeStruct(value.shape[1:], value._value.dtype))
    return value


class SinkLoop:
    """Run ``network`` for every step of a stacked block of inputs, as one compiled program.

    Args:
        network (Cell): the per-step network (usually a TrainOneStepCell).

    Inputs:
        - **inputs** (Tensor) -- each of shape ``(steps, *per_step_shape)``.

    Outputs:
        The network's outputs, each stacked to ``(steps, *shape)``.
    """

    def __init__(self, network):
        self.network = network
        self.discovered = None
        self.programs = {}
        self.name = f"sink({type(network).__name__})"

    def __call__(self, *inputs):
        for value in inputs:
            if isinstance(value, Tensor) and value.ndim == 0:
                raise ValueError(f"{self.name}: every Tensor input needs a leading steps axis; got a 0-d Tensor.")
        if self.discovered is None:
            self.discovered = discover(self.network)
        if is_tracing():
            return self._scan(inputs)
        key, arrays = signature(inputs, {})
        key = (key, self.discovered.training_flags())
        program = self.programs.get(key)
        if program is None:
            program = self._build(inputs, arrays)
            self.programs[key] = program
        if program.eager:
            return self._eager(inputs)
        return program(arrays)

    def _scan(self, inputs):
        """Inside a trace: scan the network over the inputs, threading all state as the carry."""
        network = self.network
        states = list(self.discovered.states)
        templates = tuple(_slice_template(value) for value in inputs)

        def step(carry, step_arrays):
            with Bound(states, list(carry), self.name) as binding:
                step_args, _ = rebuild(templates, {}, step_arrays)
                outputs = detach_outputs(run_construct(network, step_args, {}))
            return binding.new_values, outputs

        _, arrays = signature(inputs, {})
        carry = [state._value for state in states]
        final, outputs = jax.lax.scan(step, carry, arrays)
        bind_values(states, final)
        return outputs

    def _build(self, inputs, arrays):
        inputs, _ = skeleton(inputs, {})

        def body(traced_arrays):
            traced_inputs, _ = rebuild(inputs, {}, traced_arrays)
            return self._scan(traced_inputs)

        return build_program(body, self.discovered, arrays, self.name)

    def _eager(self, inputs):
        """Step by step (the network's Python cannot be traced): stack the outputs afterwards."""
        steps = next(value.shape[0] for value in inputs if isinstance(value, Tensor))
        results = []
        for index in range(steps):
            step_args = [Tensor._wrap(value._value[index]) if isinstance(value, Tensor) else value for value in inputs]
            results.append(self.network(*step_args))
        return jax.tree_util.tree_map(lambda *leaves: Tensor._wrap(jax.numpy.stack([l._value for l in leaves])),
                                      *results, is_leaf=lambda leaf: isinstance(leaf, Tensor))

"""``export(..., file_format="ONNX")`` and ``mindspore.onnx.export``: a network's forward pass as an ONNX model.

The network is traced to a jaxpr with its weights bound as constants (``sporax.state``), and
each JAX primitive becomes ONNX nodes built with the ``onnx`` package. Shapes are static (those
of the example inputs). A primitive without a mapping raises ``NotImplementedError`` naming it.
"""
import jax
import onnx

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.io.atomic import write_atomic
from sporax.io.export import _flatten_outputs, _unique_parameters
from sporax.ops.lowering import plain_lowering
from sporax.io.onnx_ops import OnnxGraph
from sporax.state.lifting import lift
from sporax.state.discovery import DiscoveryCache

OPSET = 17

__all__ = ["export", "export_onnx"]


def export_onnx(net, inputs, path, input_names=None, output_names=None):
    """Trace ``net`` on ``inputs`` and write an ONNX model to ``path``; its inputs are named ``input_names``
    (default ``input_0`` ...) and its outputs ``output_names`` (default ``output_0`` ...)."""
    specs = []
    for position, value in enumerate(inputs):
        if not isinstance(value, Tensor) or any(dim == -1 for dim in value.shape):
            raise NotImplementedError(
                f"export(file_format='ONNX'): input {position} must be a Tensor with a static shape; "
                "dynamic dimensions (None) are supported by file_format='MINDIR'.")
        specs.append(jax.ShapeDtypeStruct(value.shape, mstype.to_numpy_dtype(value.dtype)))
    parameters = _unique_parameters(net)
    # Other state the forward pass may touch (the RNG key, Parameters outside the Cell tree) is lifted
    # too, so a GRAPH-mode call inside the trace finds it owned; its current values are constants.
    known = {id(parameter) for parameter in parameters}
    parameters += [state for state in DiscoveryCache(net).get().states if id(state) not in known]
    values = [p._value for p in parameters]

    def forward(*arguments):
        return _flatten_outputs(net(*[Tensor._wrap(argument) for argument in arguments]))[0]

    pure = lift(forward, parameters, name=f"export({type(net).__name__})")
    closed = jax.make_jaxpr(lambda *arguments: pure(values, *arguments)[0])(*specs)

    graph = OnnxGraph()
    names = _names("input_names", input_names, "input", len(specs))
    for name, spec in zip(names, specs):
        graph.add_input(name, spec.shape, spec.dtype)
    outputs = graph.emit_jaxpr(closed.jaxpr, closed.consts, names)
    for name, final, variable in zip(outputs, _names("output_names", output_names, "output", len(outputs)),
                                     closed.jaxpr.outvars):
        graph.node("Identity", [name], [final])
        graph.add_output(final, variable.aval.shape, variable.aval.dtype)
    model = graph.model(f"sporax_{type(net).__name__}", OPSET)
    onnx.checker.check_model(model)
    write_atomic(path, model.SerializeToString(), mode=0o400)


def _names(argument, names, prefix, count):
    if names is None:
        return [f"{prefix}_{index}" for index in range(count)]
    if not isinstance(names, (list, tuple)) or len(names) != count or not all(isinstance(n, str) for n in names):
        raise ValueError(f"For 'mindspore.onnx.export', '{argument}' must be a list of {count} str (one per "
                         f"{prefix}), but got {names!r}.")
    return list(names)


def export(net, *inputs, file_name, input_names=None, output_names=None, export_params=True,
           keep_initializers_as_inputs=False, dynamic_axes=None):
    """``mindspore.onnx.export``: write ``net``'s forward pass on ``inputs`` to ``file_name`` (``.onnx`` appended
    when missing), its inputs and outputs named ``input_names`` / ``output_names``.

    The weights are always stored in the model as constants, with static shapes: ``export_params=False``,
    ``keep_initializers_as_inputs=True`` and ``dynamic_axes`` raise NotImplementedError.
    """
    unsupported = [name for name, value, default in (("export_params", export_params, True),
                                                     ("keep_initializers_as_inputs", keep_initializers_as_inputs,
                                                      False), ("dynamic_axes", dynamic_axes, None))
                   if value != default]
    if unsupported:
        raise NotImplementedError(f"mindspore.onnx.export({unsupported[0]}=...): sporax stores the weights in the "
                                  "model as constants and exports static shapes; leave it at its default.")
    path = str(file_name) if str(file_name).endswith(".onnx") else f"{file_name}.onnx"
    with plain_lowering():  # an exported graph is for any backend and runtime, not XLA:CPU's
        export_onnx(net, inputs, path, input_names, output_names)

"""``export(..., file_format="ONNX")``: a network's forward pass as an ONNX model.

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
from sporax.io.onnx_ops import OnnxGraph
from sporax.state.lifting import lift
from sporax.state.discovery import DiscoveryCache

OPSET = 17


def export_onnx(net, inputs, path):
    """Trace ``net`` on ``inputs`` and write an ONNX model to ``path``."""
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
    names = [f"input_{index}" for index in range(len(specs))]
    for name, spec in zip(names, specs):
        graph.add_input(name, spec.shape, spec.dtype)
    outputs = graph.emit_jaxpr(closed.jaxpr, closed.consts, names)
    for index, (name, variable) in enumerate(zip(outputs, closed.jaxpr.outvars)):
        final = f"output_{index}"
        graph.node("Identity", [name], [final])
        graph.add_output(final, variable.aval.shape, variable.aval.dtype)
    model = graph.model(f"sporax_{type(net).__name__}", OPSET)
    onnx.checker.check_model(model)
    write_atomic(path, model.SerializeToString(), mode=0o400)


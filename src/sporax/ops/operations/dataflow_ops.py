"""Dataflow-graph Primitives: ``GeSwitch``/``Merge`` (a conditional as two branches and their join) and
``DtypeToEnum`` (a dtype's MindSpore TypeId number).

MindSpore's dataflow conditional sends ``data`` down one of two branches: ``GeSwitch`` returns
``(false_output, true_output)`` of which only the branch ``pred`` selects is live, and ``Merge``
takes the outputs of the branches and forwards the one live input with its index. sporax runs
them eagerly: the branch not taken holds ``None`` (a dead value), so a ``Merge`` of the two
branches' results returns the live one. A predicate only known inside a compiled program can not
choose a branch here: use ``ops.select`` or Python ``if`` (converted to ``lax.cond``) there.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> false_branch, true_branch = ops.GeSwitch()(Tensor(np.float32(2.0)), Tensor(True))
    >>> false_branch is None, float(true_branch)
    (True, 2.0)
    >>> output, index = ops.Merge()((false_branch, true_branch * 3))
    >>> float(output), int(index)
    (6.0, 1)
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.ops.primitive import Primitive, prim_attr_register

# MindSpore's TypeId numbers (mindspore/core/ir/dtype/type_id.h) of the dtypes a user can name.
_TYPE_IDS = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38,
             "UInt32": 39, "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44, "BFloat16": 45,
             "Float8E4M3FN": 46, "Float8E5M2": 47, "HiFloat8": 48, "Complex64": 51, "Complex128": 52, "NoneType": 7,
             "Number": 11, "String": 12, "List": 13, "Tuple": 14, "TensorType": 15}


def _predicate(name, pred):
    value = pred._value if isinstance(pred, Tensor) else pred
    if isinstance(value, jax.core.Tracer):
        raise RuntimeError(f"For '{name}', the predicate is only known when the compiled program runs, so no "
                           f"branch can be chosen here: use ops.select, or a Python 'if' on the tensor (GRAPH "
                           f"mode converts it into lax.cond).")
    array = np.asarray(value)
    if array.size != 1:
        raise ValueError(f"For '{name}', 'pred' must hold one boolean, but got shape {array.shape}.")
    return bool(array.reshape(()))


class GeSwitch(Primitive):
    """Send ``data`` down the ``True`` or the ``False`` branch.

    Inputs:
        - **data** (Union[Tensor, Number]) - the value to route.
        - **pred** (Tensor) - a boolean scalar choosing the branch.

    Outputs:
        ``(false_output, true_output)``: ``data`` on the branch ``pred`` selects, ``None`` (dead) on the other.
    """

    def __init__(self):
        Primitive.__init__(self, "GeSwitch")  # no io names: MindSpore 2.10's records none

    def __call__(self, data, pred):
        return (None, data) if _predicate("GeSwitch", pred) else (data, None)


class Merge(Primitive):
    """Forward the one live input of a tuple of branch outputs.

    Inputs:
        - **inputs** (Union[tuple, list]) - the branches' outputs; exactly one is not ``None``.

    Outputs:
        ``(output, index)``: the live input and its position (an Int32 scalar Tensor).
    """

    def __init__(self):
        Primitive.__init__(self, "Merge")  # no io names: MindSpore 2.10's records none

    def __call__(self, *inputs):
        if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
            inputs = tuple(inputs[0])
        live = [index for index, value in enumerate(inputs) if value is not None]
        if len(live) != 1:
            raise ValueError(f"For 'Merge', exactly one input must be live (not None), but {len(live)} of "
                             f"{len(inputs)} are.")
        return inputs[live[0]], wrap(jnp.asarray(live[0], jnp.int32))


class DtypeToEnum(Primitive):
    """The MindSpore TypeId number of a dtype (``float32`` -> 43), as MindSpore's kernels receive dtype arguments.

    Inputs:
        - **op_name** (str) - the op the argument belongs to (for the error message).
        - **arg_name** (str) - the argument's name (for the error message).
        - **dtype** (mindspore.dtype) - the dtype.

    Outputs:
        int.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, op_name, arg_name, dtype):
        if isinstance(dtype, type) and issubclass(dtype, mstype.TensorType):
            dtype = dtype()
        if not isinstance(dtype, mstype.Type):
            raise TypeError(f"For '{op_name}', the input '{arg_name}' should be mindspore dtype, but got {dtype}.")
        name = "TensorType" if isinstance(dtype, mstype.TensorType) else dtype._name
        if name not in _TYPE_IDS:
            raise ValueError(f"For '{op_name}', the dtype {dtype} of '{arg_name}' has no MindSpore TypeId number.")
        return _TYPE_IDS[name]

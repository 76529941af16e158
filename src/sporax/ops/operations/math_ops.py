"""Element-wise math and product Primitive classes (``ops.Add()``, ``ops.Exp()``, ``ops.MatMul(transpose_b=True)`` ...).

Each class is a thin adapter: ``__init__`` records attributes, ``__call__`` calls the functional
op. The unary math classes are generated from their op-table entries (``primitive_class``); the
others without attributes are made by ``_elementwise`` from one row each.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.Add()(Tensor(np.ones(2, np.float32)), 1.0).shape
    (2,)
"""
from sporax.ops.functional import arithmetic, comparison, linalg  # noqa: F401 (declares the AddN, Einsum entries)
from sporax.ops.faces import primitive_class
from sporax.ops.product_fusion import HALF_DTYPES, remember_half_product
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


def _elementwise(name, function, inputs, summary):
    """A Primitive class with no attributes whose call is ``function(*inputs)``."""
    input_lines = "\n".join(f"        - **{item}** (Tensor) - an operand." for item in inputs)
    doc = (f"{summary}\n\n    Same as ``ops.{function.__name__}``.\n\n    Inputs:\n{input_lines}\n\n"
           "    Outputs:\n        Tensor.\n")

    def __init__(self):
        Primitive.__init__(self, name)  # MindSpore's io names, where its class records them (primitive_io_names)
        if "input_names" not in self.attrs:
            self.input_names, self.output_names = list(inputs), ["output"]

    def __call__(self, *args):
        if len(args) != len(inputs):
            raise TypeError(f"{name}() takes {len(inputs)} input(s) ({', '.join(inputs)}), "
                            f"but got {len(args)}.")
        return function(*args)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                     "__doc__": doc, "__module__": __name__})


_X, _XY = ["x"], ["x", "y"]

# --- arithmetic ---
Add = primitive_class(TABLE["add"], __name__)
Sub = primitive_class(TABLE["sub"], __name__)
Mul = primitive_class(TABLE["mul"], __name__)
Div = primitive_class(TABLE["true_divide"], __name__)
FloorDiv = primitive_class(TABLE["floor_div"], __name__)
FloorMod = primitive_class(TABLE["floor_mod"], __name__)
TruncateDiv = primitive_class(TABLE["truncate_div"], __name__)
TruncateMod = primitive_class(TABLE["truncate_mod"], __name__)
Mod = primitive_class(TABLE["fmod"], __name__)
Pow = primitive_class(TABLE["pow"], __name__)
Maximum = primitive_class(TABLE["maximum"], __name__)
Minimum = primitive_class(TABLE["minimum"], __name__)
Atan2 = primitive_class(TABLE["atan2"], __name__)
Xlogy = primitive_class(TABLE["xlogy"], __name__)
Xdivy = primitive_class(TABLE["xdivy"], __name__)
Lerp = primitive_class(TABLE["lerp"], __name__)
Addcmul = primitive_class(TABLE["addcmul"], __name__)
Addcdiv = primitive_class(TABLE["addcdiv"], __name__)


def _squared_difference(x, y):
    return arithmetic.mul(arithmetic.sub(x, y), arithmetic.sub(x, y))


_squared_difference.__name__ = "square(sub(x, y))"
SquaredDifference = _elementwise("SquaredDifference", _squared_difference, _XY,
                                 "Element-wise ``(x - y) ** 2``.")


RealDiv = primitive_class(TABLE["tensor_div"], __name__)

# --- unary math: generated from the op-table entries of functional/math.py ---
Exp = primitive_class(TABLE["exp"], __name__)
Expm1 = primitive_class(TABLE["expm1"], __name__)
Log = primitive_class(TABLE["log"], __name__)
Log1p = primitive_class(TABLE["log1p"], __name__)
Sqrt = primitive_class(TABLE["sqrt"], __name__)
Rsqrt = primitive_class(TABLE["rsqrt"], __name__)
Square = primitive_class(TABLE["square"], __name__)
Reciprocal = primitive_class(TABLE["reciprocal"], __name__)
Inv = primitive_class(TABLE["inv"], __name__)
Sigmoid = primitive_class(TABLE["sigmoid"], __name__)
Tanh = primitive_class(TABLE["tanh"], __name__)
Sin = primitive_class(TABLE["sin"], __name__)
Cos = primitive_class(TABLE["cos"], __name__)
Tan = primitive_class(TABLE["tan"], __name__)
Asin = primitive_class(TABLE["asin"], __name__)
ACos = primitive_class(TABLE["acos"], __name__)
Atan = primitive_class(TABLE["atan"], __name__)
Sinh = primitive_class(TABLE["sinh"], __name__)
Cosh = primitive_class(TABLE["cosh"], __name__)
Erf = primitive_class(TABLE["erf"], __name__)
Erfc = primitive_class(TABLE["erfc"], __name__)
Erfinv = primitive_class(TABLE["erfinv"], __name__)
Lgamma = primitive_class(TABLE["lgamma"], __name__)
Digamma = primitive_class(TABLE["digamma"], __name__)
Sinc = primitive_class(TABLE["sinc"], __name__)
Abs = primitive_class(TABLE["abs"], __name__)
Neg = primitive_class(TABLE["neg"], __name__)
Floor = primitive_class(TABLE["floor"], __name__)
Ceil = primitive_class(TABLE["ceil"], __name__)
Trunc = primitive_class(TABLE["trunc"], __name__)
Round = primitive_class(TABLE["round"], __name__)
Sign = primitive_class(TABLE["sign"], __name__)

# --- comparison and logic ---
Equal = primitive_class(TABLE["equal"], __name__)
NotEqual = primitive_class(TABLE["not_equal"], __name__)
Greater = primitive_class(TABLE["greater"], __name__)
GreaterEqual = primitive_class(TABLE["greater_equal"], __name__)
Less = primitive_class(TABLE["less"], __name__)
LessEqual = primitive_class(TABLE["less_equal"], __name__)
LogicalAnd = primitive_class(TABLE["logical_and"], __name__)
LogicalOr = primitive_class(TABLE["logical_or"], __name__)
LogicalXor = primitive_class(TABLE["logical_xor"], __name__)
LogicalNot = primitive_class(TABLE["logical_not"], __name__)
BitwiseAnd = primitive_class(TABLE["bitwise_and"], __name__)
BitwiseOr = primitive_class(TABLE["bitwise_or"], __name__)
BitwiseXor = primitive_class(TABLE["bitwise_xor"], __name__)
Invert = primitive_class(TABLE["invert"], __name__)
IsNan = primitive_class(TABLE["isnan"], __name__)
IsInf = primitive_class(TABLE["isinf"], __name__)
IsFinite = primitive_class(TABLE["isfinite"], __name__)

# --- products ---
AddN = primitive_class(TABLE["addn"], __name__)


_MatMulFace = primitive_class(TABLE["mat_mul"], __name__)


class MatMul(_MatMulFace):
    # A half-precision product is remembered for a BiasAdd that may follow (sporax.ops.product_fusion).
    __doc__ = _MatMulFace.__doc__

    def __call__(self, *args):
        output = super().__call__(*args)
        if len(args) == 2 and output.dtype in HALF_DTYPES:
            remember_half_product(output, args[0], args[1], self.transpose_a, self.transpose_b)
        return output


BatchMatMul = primitive_class(TABLE["batch_mat_mul"], __name__)


Einsum = primitive_class(TABLE["einsum_operands"], __name__)


class ApproximateEqual(Primitive):
    """Where ``|x - y| < tolerance`` (Bool).

    Args:
        tolerance (float): the bound. Default: 1e-05.

    Inputs:
        - **x** (Tensor) - first operand.
        - **y** (Tensor) - second operand.

    Outputs:
        Bool Tensor.
    """

    @prim_attr_register
    def __init__(self, tolerance=1e-05):
        if not isinstance(tolerance, float):
            raise TypeError("For 'ApproximateEqual', the type of 'tolerance' should be 'float', but got type "
                            f"'{type(tolerance).__name__}'.")
        self.tolerance = tolerance

    def __call__(self, x, y):
        return comparison.approximate_equal(x, y, self.tolerance)


IsClose = primitive_class(TABLE["isclose"], __name__)

"""``mindspore.ops.operations``: the Primitive classes, thin adapters onto the functional ops."""
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register

# --- math (owner: ops-math) ---
from sporax.ops.operations.math_ops import (
    Add, Sub, Mul, Div, FloorDiv, FloorMod, TruncateDiv, TruncateMod, Mod, Pow, Maximum,
    Minimum, Atan2, Xlogy, Xdivy, Lerp, Addcmul, Addcdiv, SquaredDifference, RealDiv, Exp,
    Expm1, Log, Log1p, Sqrt, Rsqrt, Square, Reciprocal, Sigmoid, Tanh, Sin, Cos, Tan, Asin,
    ACos, Atan, Sinh, Cosh, Erf, Erfc, Erfinv, Lgamma, Digamma, Sinc, Abs, Neg, Floor, Ceil,
    Trunc, Round, Sign, Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual, LogicalAnd,
    LogicalOr, LogicalXor, LogicalNot, BitwiseAnd, BitwiseOr, BitwiseXor, Invert, IsNan, IsInf,
    IsFinite, AddN, MatMul, BatchMatMul, Einsum, ApproximateEqual, IsClose)
from sporax.ops.operations.reduce_ops import (
    ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny, ReduceSum, ReduceStd,
    Argmax, Argmin, ArgMaxWithValue, ArgMinWithValue, CumSum, CumProd, Cummax, Cummin, TopK,
    Sort)

# --- array, nn (owner: ops-array-nn) ---

"""``mindspore.ops.operations``: the Primitive classes, thin adapters onto the functional ops."""
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register

# --- math (owner: ops-math) ---
from sporax.ops.operations.math_ops import (
    Add, Sub, Mul, Div, FloorDiv, FloorMod, TruncateDiv, TruncateMod, Mod, Pow, Maximum,
    Minimum, Atan2, Xlogy, Xdivy, Lerp, Addcmul, Addcdiv, SquaredDifference, RealDiv, Exp,
    Expm1, Log, Log1p, Sqrt, Rsqrt, Square, Reciprocal, Inv, Sigmoid, Tanh, Sin, Cos, Tan, Asin,
    ACos, Atan, Sinh, Cosh, Erf, Erfc, Erfinv, Lgamma, Digamma, Sinc, Abs, Neg, Floor, Ceil,
    Trunc, Round, Sign, Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual, LogicalAnd,
    LogicalOr, LogicalXor, LogicalNot, BitwiseAnd, BitwiseOr, BitwiseXor, Invert, IsNan, IsInf,
    IsFinite, AddN, MatMul, BatchMatMul, Einsum, ApproximateEqual, IsClose)
from sporax.ops.operations.reduce_ops import (
    ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny, ReduceSum, ReduceStd,
    Argmax, Argmin, ArgMaxWithValue, ArgMinWithValue, CumSum, CumProd, Cummax, Cummin, TopK,
    Sort)

# --- array, nn (owner: ops-array-nn) ---
from sporax.ops.operations.array_ops import (
    Cast, DType, Shape, Rank, Size, Reshape, Transpose, ExpandDims, Tile, Select, Fill, OnesLike,
    ZerosLike, GatherNd, GatherD, Slice, ScatterNd, TensorScatterUpdate, TensorScatterAdd,
    MaskedFill, MaskedSelect, Unique, TupleToArray, LinSpace, Identity, ScalarToTensor, Eye, Ones,
    Zeros, Concat, Stack, Unstack, Split, Squeeze, Flatten, Gather, GatherV2, OneHot, StridedSlice,
    BroadcastTo, ReverseV2, Meshgrid, Range, UnsortedSegmentSum, Print)
from sporax.ops.operations.nn_ops import (
    ReLU, ReLU6, GeLU, FastGeLU, HSwish, HSigmoid, Softplus, Softsign, SeLU, Mish, L2Loss, Softmax,
    LogSoftmax, Elu, BiasAdd, Conv2D, MaxPool, AvgPool, AdaptiveAvgPool2D, ResizeNearestNeighbor,
    Pad, Dropout, Dropout2D, PReLU, GLU, MaxPool3D, ResizeBilinearV2)
from sporax.ops.operations.loss_norm_ops import (
    BatchNorm, LayerNorm, L2Normalize, SigmoidCrossEntropyWithLogits, SoftmaxCrossEntropyWithLogits,
    SparseSoftmaxCrossEntropyWithLogits, BinaryCrossEntropy, SmoothL1Loss, KLDivLoss)
from sporax.ops.operations.random_ops import (
    StandardNormal, UniformReal, UniformInt, RandomChoiceWithMask, Multinomial)
from sporax.ops.operations.scatter_ops import (
    ScatterAdd, ScatterUpdate, ScatterNdAdd, ScatterNdUpdate, TensorScatterSub, TensorScatterMul,
    TensorScatterDiv, TensorScatterMax, TensorScatterMin, TensorScatterElements, IndexAdd, Roll,
    Tril, Triu, MatrixBandPart, Expand, NonZero, ReverseSequence, DepthToSpace, SpaceToDepth)
from sporax.ops.operations.more_ops import (
    Pack, Unpack, HShrink, SoftShrink, CeLU, FastGelu, Dense, SoftMarginLoss, UnsortedSegmentMax,
    UnsortedSegmentMin, UnsortedSegmentProd, BCEWithLogitsLoss, NLLLoss, Conv3D, AvgPool3D,
    Dropout3D, StandardLaplace, InvertPermutation, Diag, DiagPart, TrilIndices, TriuIndices,
    ScalarToArray, SplitV)

# --- Parameter updates (owner: lead) ---
from sporax.ops.operations.update_ops import (
    Adam, ApplyGradientDescent, ApplyMomentum, Assign, AssignAdd, AssignSub)
from sporax.ops.operations.update_ops import ApplyAdadelta, CopyWithSlice

# --- collective communication (owner: comm) ---
from sporax.ops.operations.comm_ops import AllGather, AllReduce, AlltoAll, Broadcast, ReduceOp, ReduceScatter

# --- autodiff primitives ---
from sporax.autodiff.functional import Depend, StopGradient
from sporax.ops.float_status import FloatStatus, NPUAllocFloatStatus, NPUClearFloatStatus, NPUGetFloatStatus

# MindSpore still exports the old name of Add.
TensorAdd = Add
from sporax.ops.operations.linalg_ops import LpNorm, MatrixSolve, SquareSumAll

# --- autodiff hooks, composites and debug primitives (MindSpore's ops.operations exports them) ---
from sporax.autodiff.hooks import HookBackward, InsertGradientOf
from sporax.graph.composite import Partial
from sporax.ops.tensor_dump import TensorDump
from sporax.ops.functional.sequence import ScalarCast
from sporax.ops.operations.bbox_ops import (
    BoundingBoxDecode, BoundingBoxEncode, CheckValid, IOU, NMSWithMask, ROIAlign)
from sporax.ops.operations.custom_ops import Custom
from sporax.ops.operations.scatter_ops import SpaceToBatchND
from sporax.ops.operations.more_ops import NoRepeatNGram
from sporax.ops.operations.image_ops import CropAndResize
from sporax.ops.operations.conv_backprop_ops import Conv2DBackpropInput
from sporax.ops.operations.scatter_ops import SparseReorder
from sporax.ops.operations.summary_ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary
from sporax.ops.operations.dynamic_rnn import DynamicRNN

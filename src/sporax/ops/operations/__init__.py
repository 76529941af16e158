"""``mindspore.ops.operations``: the Primitive classes, thin adapters onto the functional ops."""
import sys
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
    Pad, Dropout, Dropout2D, PReLU, GLU, MaxPool3D, ResizeBilinearV2, HShrink, SoftShrink, CeLU)
from sporax.ops.operations.loss_norm_ops import (
    BatchNorm, InstanceNorm, LayerNorm, L2Normalize, SigmoidCrossEntropyWithLogits, SoftmaxCrossEntropyWithLogits,
    SparseSoftmaxCrossEntropyWithLogits, BinaryCrossEntropy, SmoothL1Loss, KLDivLoss)
from sporax.ops.operations.random_ops import (
    StandardNormal, UniformReal, UniformInt, RandomChoiceWithMask, Multinomial)
from sporax.ops.operations.scatter_ops import (
    ScatterAdd, ScatterUpdate, ScatterNdAdd, ScatterNdUpdate, TensorScatterSub, TensorScatterMul,
    TensorScatterDiv, TensorScatterMax, TensorScatterMin, TensorScatterElements, IndexAdd, Roll,
    Tril, Triu, MatrixBandPart, Expand, NonZero, ReverseSequence, DepthToSpace, SpaceToDepth)
from sporax.ops.operations.array_ops import (
    Diag, DiagPart, InvertPermutation, Pack, SplitV, TrilIndices, TriuIndices, Unpack,
    UnsortedSegmentMax, UnsortedSegmentMin, UnsortedSegmentProd)
from sporax.ops.operations.nn_ops import (
    AvgPool3D, BCEWithLogitsLoss, Conv3D, Dense, Dropout3D, FastGelu, NLLLoss, SoftMarginLoss)

from sporax.ops.operations.random_distribution_ops import StandardLaplace

# --- Parameter updates (owner: lead) ---
from sporax.ops.operations.update_ops import (
    Adam, ApplyGradientDescent, ApplyMomentum, Assign, AssignAdd, AssignSub)
from sporax.ops.operations.update_ops import ApplyAdadelta, CopyWithSlice

# --- collective communication (owner: comm) ---
from sporax.ops.operations.comm_ops import AllGather, AllReduce, AlltoAll, Broadcast, ReduceOp, ReduceScatter
from sporax.ops.operations.comm_ops import NeighborExchange, NeighborExchangeV2, Receive, Send

# --- autodiff primitives ---
from sporax.ops.functional.dependencies import Depend, StopGradient
from sporax.ops.float_status import FloatStatus, NPUAllocFloatStatus, NPUClearFloatStatus, NPUGetFloatStatus

# MindSpore still exports the old name of Add.
TensorAdd = Add
from sporax.ops.operations.linalg_ops import LpNorm, MatrixSolve, SquareSumAll

# --- autodiff hooks, composites and debug primitives (MindSpore's ops.operations exports them) ---
from sporax.autodiff.hooks import HookBackward, InsertGradientOf
from sporax.graph.composite import Partial
from sporax.ops.tensor_dump import TensorDump
from sporax.ops.operations.scalar_ops import ScalarCast, ScalarToArray, TensorToTuple
from sporax.ops.operations.bbox_ops import (
    BoundingBoxDecode, BoundingBoxEncode, CheckValid, IOU, NMSWithMask, ROIAlign)
from sporax.ops.operations.custom_ops import Custom
from sporax.ops.custom_op_builder import CustomOpBuilder  # MindSpore exports it here too
from sporax.ops.operations.scatter_ops import SpaceToBatchND
from sporax.ops.operations.nn_ops import NoRepeatNGram
from sporax.ops.operations.image_ops import CropAndResize
from sporax.ops.operations.conv_backprop_ops import Conv2DBackpropInput
from sporax.ops.operations.scatter_ops import SparseReorder
from sporax.ops.operations.ctc_ops import CTCLoss, CTCLossV2
from sporax.ops.operations.ctc_decoder_ops import CTCGreedyDecoder
from sporax.ops.operations.math_counting_ops import (
    AccumulateNV2, Acosh, Angle, Asinh, Atanh, BesselI0, BesselI0e, BesselI1, BesselI1e, BesselJ0, BesselJ1,
    BesselK0, BesselK0e, BesselK1, BesselK1e, BesselY0, BesselY1, Betainc, Bincount, Bucketize, Cdist,
    CheckNumerics, Complex, ComplexAbs, Conj, ConjugateTranspose, CountNonZero, Cross, CumulativeLogsumexp,
    DivNoNan, Eps, EqualCount, EuclideanNorm, FillDiagonal, Fills, FillV2, Fmax, Fmin, Gcd, Gelu, Ger, Heaviside,
    Histogram, HistogramFixedWidth, Hypot, IdentityN, Igamma, Igammac, Imag, InTopK)
from sporax.ops.operations.decomposition_ops import Cholesky, CholeskyInverse, CholeskySolve, Eig, Geqrf
from sporax.ops.operations.inplace_ops import (
    IndexFill, IndexPut, InplaceAdd, InplaceIndexAdd, InplaceSub, InplaceUpdate, InplaceUpdateV2)
from sporax.ops.operations.spectral_ops import BartlettWindow, BlackmanWindow, FFTWithSize, HammingWindow
from sporax.ops.operations.math_counting_ops import identity
from sporax.ops.operations.optimizer_ops import (
    AdamNoUpdateParam, AdamWeightDecay, ApplyAdagrad, ApplyAdagradDA, ApplyAdagradV2, ApplyAdaMax,
    ApplyAdamWithAmsgrad, ApplyAdamWithAmsgradV2, ApplyAddSign, ApplyCenteredRMSProp, ApplyFtrl, ApplyKerasMomentum,
    ApplyPowerSign, ApplyProximalAdagrad, ApplyProximalGradientDescent, ApplyRMSProp, FusedCastAdamWeightDecay)
from sporax.ops.operations.fused_sparse_optimizer_ops import (
    FusedSparseAdam, FusedSparseFtrl, FusedSparseLazyAdam, FusedSparseProximalAdagrad)

# --- ops breadth, names l-z (owner: opsb) ---
from sporax.ops.operations.math_linalg_ops import (
    LeftShift, Lcm, LerpScalar, LogMatrixDeterminant, Logit, Lstsq, LuSolve, LuUnpack, MatrixDeterminant,
    MatrixDiagPartV3, MatrixDiagV3, MatrixExp, MatrixInverse, MatrixLogarithm, MatrixPower, MatrixSetDiagV3,
    MatrixSolveLs, MatrixTriangularSolve, MulNoNan, Mvlgamma, NanToNum, NextAfter, NuclearNorm, Orgqr, Ormqr, Pdist,
    Polar, Polygamma, PopulationCount, Qr, Real, Renorm, RightShift, Rint, Svd, Trace, TridiagonalMatMul, Zeta)
from sporax.ops.operations.order_statistics_ops import (
    LowerBound, Median, NthElement, Quantile, SearchSorted, UpperBound)
from sporax.ops.operations.array_nn_ops import (
    LRN, LogSoftmaxExt, LogSpace, MaskedScatter, MirrorPad, MultiMarginLoss, MultilabelMarginLoss, PadV3, Padding,
    ParallelConcat, RaggedRange, RmsNorm, ScatterAddWithAxis, SegmentMax, SegmentMean, SegmentMin, SegmentProd,
    SegmentSum, SelectView, SpaceToBatch, TensorShape, TransposeExtView, TransposeView,
    TripletMarginLoss, UnravelIndex)
from sporax.ops.operations.scatter_ops import (
    ScatterDiv, ScatterMax, ScatterMin, ScatterMul, ScatterNdDiv, ScatterNdMax, ScatterNdMin, ScatterNdMul,
    ScatterNdSub, ScatterNonAliasingAdd, ScatterSub)
from sporax.ops.operations.summary_ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary
from sporax.ops.operations.random_ops import RandomCategorical
from sporax.ops.operations.set_ops import ListDiff
from sporax.ops.operations.nn_spatial_ops import (
    AdaptiveAvgPool3D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, AffineGrid, BatchToSpace, BatchToSpaceND,
    BatchToSpaceNDV2, ChannelShuffle, Col2Im, Conv2DTranspose, Conv3DTranspose, DataFormatDimMap, DataFormatVecPermute,
    DepthwiseConv2dNative, DynamicShape, EmbeddingLookup, GridSampler2D, GridSampler3D, Im2Col)
from sporax.ops.operations.patch_ops import ExtractGlimpse, ExtractImagePatches, ExtractVolumePatches
from sporax.ops.operations.control_flow_ops import Assert, ForiLoop
from sporax.ops.operations.image_ops import AdjustHue, AdjustSaturation, Dilation2D, HSVToRGB
from sporax.ops.operations.math_counting_ops import CompareAndBitpack, ConfusionMatrix
from sporax.ops.operations.random_distribution_ops import Bernoulli, Cauchy, DropoutDoMask, DropoutGenMask, Gamma
from sporax.ops.operations.candidate_sampling_ops import ComputeAccidentalHits
from sporax.ops.operations.sparse_coordinate_ops import Coalesce
from sporax.ops.operations.recurrent_ops import BasicLSTMCell, DynamicGRUV2
from sporax.ops.functional.real_fft import STFT
from sporax.ops.operations.random_distribution_ops import (
    LogNormalReverse, MultinomialWithReplacement, NonDeterministicInts, ParameterizedTruncatedNormal, Poisson,
    RandomGamma, RandomPoisson, RandomShuffle, Randperm, RandpermV2, TruncatedNormal)
from sporax.ops.operations.candidate_sampling_ops import LogUniformCandidateSampler, UniformCandidateSampler
from sporax.ops.operations.sparse_apply_ops import (
    LARSUpdate, SGD, SparseApplyAdadelta, SparseApplyAdagrad, SparseApplyAdagradV2, SparseApplyFtrl, SparseApplyFtrlV2,
    SparseApplyProximalAdagrad, SparseApplyRMSProp)
from sporax.ops.operations.sparse_coordinate_ops import (
    SparseGatherV2, SparseSlice, SparseTensorDenseAdd, SparseTensorDenseMatmul, SparseToDense, SubAndFilter,
    UpdateState)
from sporax.ops.operations.image_resize_ops import (
    MaxPoolWithArgmaxV2, MaxUnpool2D, MaxUnpool3D, NonMaxSuppressionV3, NonMaxSuppressionWithOverlaps, RGBToHSV,
    ResizeArea, ResizeBicubic, ResizeLinear1D, ResizeNearestNeighborV2, UpsampleNearest1D, UpsampleNearest2D,
    UpsampleNearest3D, UpsampleTrilinear3D)
from sporax.ops.operations.control_flow_ops import Morph, PyFunc, Scan, WhileLoop
from sporax.ops.operations.data_queue_ops import GetNext
from sporax.ops.operations.placement_ops import MoveTo, Reshard
from sporax.ops.operations.pool_argmax_ops import MaxPool3DWithArgmax, MaxPoolWithArgmax
from sporax.ops.operations.fractional_pool_ops import (
    FractionalAvgPool, FractionalMaxPool, FractionalMaxPool3DWithFixedKsize, FractionalMaxPoolWithFixedKsize)
from sporax.ops.operations.detection_ops import CombinedNonMaxSuppression, EditDistance
from sporax.ops.operations.patch_ops import DeformableOffsets
from sporax.ops.operations.paged_attention_ops import PagedAttention, PagedAttentionMask, ReshapeAndCache
from sporax.ops.operations.flash_attention_ops import FlashAttentionScore
from sporax.ops.operations.rnnt_loss_ops import RNNTLoss
from sporax.ops.operations.recurrent_ops import LSTM
from sporax.ops.operations.dynamic_rnn import DynamicRNN
from sporax.ops.hybrid_kernel import kernel, ms_kernel
from sporax.ops.operations.concat_offset_ops import ConcatOffsetV1
from sporax.ops.operations.unique_segment_ops import SparseSegmentMean, UniqueWithPad
from sporax.ops.operations.dataflow_ops import DtypeToEnum, GeSwitch, Merge
from sporax.ops.operations.collective_ops import (
    AllGatherV, AlltoAllV, AlltoAllVC, Barrier, BatchISendIRecv, CollectiveGather, CollectiveScatter, Reduce,
    ReduceScatterV)
from sporax.ops.operations.scale_translate_ops import ScaleAndTranslate
from sporax.ops.operations.consecutive_ops import UniqueConsecutive
from sporax.ops.operations.gradient_dump_ops import DumpGradient
from sporax.ops.operations.adafactor_ops import FusedAdaFactor, FusedAdaFactorWithGlobalNorm
from sporax.ops.operations.distorted_box_ops import SampleDistortedBoundingBoxV2
from sporax.ops.operations.embedding_cache_ops import MapUniform
from sporax.ops.operations.compile_hint_ops import Reusing
from sporax.ops.operations.python_fallback_ops import PyExecute
from sporax.ops.operations.expert_routing_ops import GroupTopk
from sporax.ops.operations.update_ops import FusedWeightScaleApplyMomentum

# The one fused Ascend-only Primitive MindSpore exports publicly (``ops.ApplyRotaryPosEmb``; refused when called).
from sporax.ops.operations.ascend_fused_ops import ApplyRotaryPosEmb

# What ``from sporax.ops.operations import *`` (and so ``sporax.ops``) takes: every public name above,
# no submodules.
__all__ = [_name for _name, _value in list(globals().items())
           if not _name.startswith("_") and not isinstance(_value, type(sys))]

# MindSpore serves UpdateCache from ``mindspore.ops.operations`` only, not ``mindspore.ops``: out of ``__all__``.
from sporax.ops.operations.embedding_cache_ops import UpdateCache  # noqa: E402

# MindSpore 2.x's Ext/scalar Primitives, named in the MindIR files MindSpore exports: attributes of
# this module for the Primitive-name lookup, kept out of ``__all__`` (``mindspore.ops`` has none of them).
from sporax.ops.operations.ext_ops import *  # noqa: F401,F403,E402 (the names are ext_ops.__all__)
# MindSpore's fused Ascend-only Primitives (``MoeFinalizeRouting``, ``QuantV2`` ...): importable, refused when called.
from sporax.ops.operations.ascend_fused_ops import *  # noqa: F401,F403,E402 (the names are ascend_fused_ops.__all__)
# MindSpore's quantisation-aware-training Primitives (its private ``_quant_ops``): importable, refused when called.
from sporax.ops.operations.quant_ops import *  # noqa: F401,F403,E402 (the names are quant_ops.__all__)
# MindSpore keeps TopTypeof in its private ``_inner_ops`` (served by this module): out of ``__all__`` too.
from sporax.ops.operations.type_query_ops import TopTypeof  # noqa: F401,E402
from sporax.ops.operations.inplace_ops import TensorCopySlices  # noqa: F401,E402 (also only in ``_inner_ops``)
# MindSpore's Primitives of Python values (``ScalarAdd``, ``TupleGetItem``): its private ``_scalar_ops`` and the
# MindIR files it exports name them; generated from the op table (the names are scalar_ops.__all__).
from sporax.ops.operations.scalar_ops import *  # noqa: F401,F403,E402
# MindSpore's random-state Primitive, only in its private ``_inner_ops`` (mindnlp's mindtorch builds one).
from sporax.ops.operations.generator_state_ops import Generator  # noqa: F401,E402
# MindSpore's dynamic-shape hint, only in its private ``_inner_ops`` as well.
from sporax.ops.operations.compile_hint_ops import ConvertToDynamic  # noqa: F401,E402
# MindSpore's other spellings of ops above (``AddV2``, ``ReLUV3``, ``DivMod``, ``SparseSegmentSum`` ...), in its
# math_ops, nn_ops, array_ops, sparse_ops and ``_inner_ops`` only: out of ``__all__``.
from sporax.ops.operations.variant_ops import *  # noqa: F401,F403,E402 (the names are variant_ops.__all__)
# math_ops imports the tanh backward kernel, and other_ops keeps one StopGradient instance.
from sporax.ops.operations.grad_ops import TanhGrad  # noqa: F401,E402
stop_gradient_op = StopGradient()
# MindSpore's ``_inner_ops`` holds these as Primitive instances, not classes: ``string_mul('ab', 3)``.
string_mul, string_getitem, same_type_shape_ = string_mul(), string_getitem(), SameTypeShape()  # noqa: F405
# Symmetric eigen-decompositions and tridiagonal solves (MindSpore's linalg_ops.Eigh, math_ops.SelfAdjointEig and
# TridiagonalSolve), generated from their op-table entries; not in ``mindspore.ops`` either.
from sporax.ops.functional import symmetric_solvers as _symmetric_solvers  # noqa: E402
from sporax.ops.faces import primitive_class as _primitive_class  # noqa: E402
Eigh, SelfAdjointEig, TridiagonalSolve = (
    _primitive_class(_entry.entry, __name__) for _entry in (
        _symmetric_solvers.eigh, _symmetric_solvers.self_adjoint_eig, _symmetric_solvers.tridiagonal_solve))
from sporax.ops.functional import colour_space as _colour_space, loss as _loss  # noqa: E402
AdjustContrastv2 = _primitive_class(_colour_space.adjust_contrastv2.entry, __name__)  # MindSpore's image_ops only
SparseSoftmaxCrossEntropyWithLogitsV2 = _primitive_class(  # MindSpore's nn_ops only
    _loss.sparse_softmax_cross_entropy_with_logits_v2.entry, __name__)
# MindSpore's nn_ops only (not ``mindspore.ops``): three more row-sparse optimizers.
from sporax.ops.operations.sparse_apply_ops import (  # noqa: E402
    SparseApplyCenteredRMSProp, SparseApplyMomentum, SparseApplyProximalGradientDescent)
from sporax.ops.operations.conv_backprop_ops import Conv3DBackpropInput  # noqa: E402 (MindSpore's nn_ops only)
from sporax.ops.functional import instance_normalization as _instance_normalization  # noqa: E402
InstanceNormV2 = _primitive_class(_instance_normalization.instance_norm_v2.entry, __name__)  # MindSpore's nn_ops only
from sporax.ops.functional import crop_gradients as _crop_gradients  # noqa: E402 (MindSpore's image_ops only)
CropAndResizeGradImage, CropAndResizeGradBoxes = (_primitive_class(_function.entry, __name__) for _function in (
    _crop_gradients.crop_and_resize_grad_image, _crop_gradients.crop_and_resize_grad_boxes))
from sporax.ops.functional import sparse_empty_rows as _sparse_empty_rows  # noqa: E402 (MindSpore's sparse_ops only)
SparseFillEmptyRows = _primitive_class(_sparse_empty_rows.sparse_fill_empty_rows.entry, __name__)
from sporax.ops.functional import sparse_sets as _sparse_sets  # noqa: E402 (MindSpore's sparse_ops only)
SparseConcat, DenseToDenseSetOperation = (_primitive_class(_function.entry, __name__) for _function in (
    _sparse_sets.sparse_concat, _sparse_sets.dense_to_dense_set_operation))
from sporax.ops.operations.random_ops import Uniform  # noqa: E402 (MindSpore's random_ops only)
from sporax.ops.operations.scatter_ops import TensorScatterElementsExt  # noqa: E402 (MindSpore's array_ops only)
from sporax.ops.operations.image_resize_ops import ResizeV2  # noqa: E402 (MindSpore's image_ops only)
from sporax.ops.operations.sparse_apply_ops import SparseApplyAdagradDA  # noqa: E402 (MindSpore's nn_ops only)
from sporax.ops.operations.ctc_ops import CTCLossV2Grad  # noqa: E402 (MindSpore's nn_ops only)
from sporax.ops.functional import array_joining as _array_joining  # noqa: E402 (MindSpore's _inner_ops only)
from sporax.ops.functional import sparse_value_sized as _sparse_value_sized  # noqa: E402
DynamicStitch = _primitive_class(_array_joining.dynamic_stitch.entry, __name__)
PadAndShift = _primitive_class(_sparse_value_sized.pad_and_shift.entry, __name__)  # MindSpore's _embedding_cache_ops

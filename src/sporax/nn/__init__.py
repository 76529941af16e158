"""``sporax.nn`` (``mindspore.nn``): ``Cell``, containers, layers, losses, optimizers, wrappers."""
from sporax.nn.cell import Cell
from sporax.nn.container import CellDict, CellList, SequentialCell
from sporax.nn.layer.activation import (CELU, ELU, GELU, GLU, LRN, FastGelu, HSigmoid, HSwish, Hardtanh,
                                        LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, SeLU, Sigmoid,
                                        SiLU, SoftShrink, Softmax, Softmax2d, Softmin, Softsign, Tanh, Tanhshrink,
                                        get_activation)
from sporax.nn.layer.basic import (Dense, Dropout, Dropout1d, Dropout2d, Dropout3d, Flatten, Identity, Linear, Pad,
                                   PixelShuffle, PixelUnshuffle, Unflatten)
from sporax.nn.layer.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose
from sporax.nn.layer.conv3d import Conv3d, Conv3dTranspose
from sporax.nn.layer.embedding import Embedding
from sporax.nn.layer.image import CentralCrop, ChannelShuffle, ImageGradients, Upsample
from sporax.nn.layer.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, LayerNorm
from sporax.nn.layer.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                                     AvgPool1d, AvgPool2d, LPPool1d, LPPool2d, MaxPool1d, MaxPool2d)
from sporax.nn.layer.pooling3d import AdaptiveMaxPool3d, AvgPool3d, MaxPool3d
from sporax.nn.layer.unpool import MaxUnpool1d, MaxUnpool2d, MaxUnpool3d
from sporax.nn.layer.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell, RNNCellBase
from sporax.nn.layer.transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                                         TransformerEncoder, TransformerEncoderLayer)

# --- losses, optimizers, wrappers, metrics (owner: training) ---
from sporax.nn.dynamic_lr import (cosine_decay_lr, exponential_decay_lr, inverse_decay_lr, natural_exp_decay_lr,
                                  piecewise_constant_lr, polynomial_decay_lr, warmup_lr)
from sporax.nn.graph_cell import GraphCell
from sporax.nn.learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                                              LearningRateSchedule, NaturalExpDecayLR, PolynomialDecayLR,
                                              WarmUpLR)
from sporax.nn.loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, LossBase,
                            MSELoss, NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from sporax.nn.optim import SGD, Adagrad, Adam, AdamWeightDecay, Lamb, Momentum, Optimizer, RMSProp
from sporax.nn.wrap import TrainOneStepCell, WithEvalCell, WithLossCell
from sporax.nn.optim import FTRL, opt_init_args_register, thor
from sporax.nn.wrap import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, ForwardValueAndGrad,
                             TrainOneStepWithLossScaleCell)
from sporax.nn.loss import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss,
                            MultiLabelSoftMarginLoss)
from sporax.nn.wrap.grad_reducer import DistributedGradReducer, PipelineGradReducer
from sporax.train.metrics import (MAE, MSE, Accuracy, F1, Fbeta, Loss, Metric, Precision, Recall,
                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy)
from sporax.nn.loss import DiceLoss, FocalLoss, MAELoss, MultiMarginLoss
from sporax.nn.layer.image_quality import PSNR, SSIM, ClipByNorm
from sporax.nn.layer.sparse import SparseTensorDenseMatmul, SparseToDense
from sporax.nn.optim import AdaMax, Adadelta
from sporax.nn.grad_cells import Jvp, Vjp
from sporax.nn.layer.combined import Conv2dBnAct, DenseBnAct
from sporax.nn.layer.normalization import SyncBatchNorm
from sporax.nn.layer.embedding import EmbeddingLookup
from sporax.nn.wrap.micro_batch import GradAccumulationCell, MicroBatchInterleaved, PipelineCell
from sporax.nn.wrap.micro_batch import VirtualDatasetCellTriple
from sporax.nn.layer.matmul import MatMul
from sporax.nn.loss import CTCLoss
from sporax.nn.wrap import WithGradCell
from sporax.train.metrics import (
    BleuScore, ConfusionMatrix, CosineSimilarity, Dice, HausdorffDistance, MeanSurfaceDistance, Perplexity, ROC,
    RootMeanSquareDistance, auc, get_metric_fn, get_metrics, names, rearrange_inputs,
)
from sporax.nn.layer.instance_norm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from sporax.nn.layer.patches import Unfold
from sporax.nn.optim.lars import LARS
from sporax.nn.layer.math_cells import (
    DiGamma, IGamma, L1Regularizer, LBeta, LGamma, MatDet, MatInverse, MatrixDiag, MatrixDiagPart, MatrixSetDiag,
    Moments, Norm, OneHot, Range, ReduceLogSumExp, Roll, Tril, Triu,
)
from sporax.nn.loss import MultilabelMarginLoss, PoissonNLLLoss, RMSELoss, TripletMarginLoss
from sporax.mint.nn import (
    AdaptiveAvgPool3d, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
    ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, SoftMarginLoss, Threshold, ZeroPad2d,
)
from sporax.mint.nn import Hardshrink as HShrink
from sporax.mint.nn import L1Loss as L1LossExt
from sporax.mint.nn import LogSoftmax as LogSoftmaxExt
from sporax.mint.nn import PReLU as PReLUExt
from sporax.mint.nn import AvgPool1d as AvgPool1dExt
from sporax.mint.nn import AvgPool2d as AvgPool2dExt
from sporax.mint.nn import AvgPool3d as AvgPool3dExt
from sporax.train.metrics import ConfusionMatrixMetric
from sporax.train.metrics import OcclusionSensitivity
from sporax.nn.layer.ext_layers import Dropout2dExt, DropoutExt, EmbeddingExt, LayerNormExt, MaxPool2dExt
from sporax.nn.layer.activation import RReLU
from sporax.nn.layer.basic import BiDense
from sporax.nn.layer.time_distributed import TimeDistributed
from sporax.nn.wrap.cell_wrapper import ParameterUpdate
from sporax.nn.loss import MultiClassDiceLoss, TripletMarginWithDistanceLoss
from sporax.nn.optim.adaptive import AdamOffload, LazyAdam
from sporax.nn.optim.proximal_rprop_asgd import ASGD, ProximalAdagrad, Rprop
from sporax.nn.optim.tft_wrapper import OptTFTWrapper  # noqa: E402
from sporax.core.parameter import no_init_parameters
from sporax.nn.wrap.get_next import GetNextSingleOp  # noqa: E402
# The Primitive attributes MindSpore's layers hold (``LayerNorm.layer_norm``), put on the layer classes.
from sporax.nn.layer import inner_primitives as _inner_primitives  # noqa: E402,F401
from sporax.nn.layer.fractional_pooling import FractionalMaxPool2d, FractionalMaxPool3d  # noqa: E402
from sporax.nn.layer.multiscale_ssim import MSSSIM  # noqa: E402
from sporax.nn.layer.multi_field_embedding import MultiFieldEmbeddingLookup  # noqa: E402
from sporax.nn.loss.sampled_softmax import SampledSoftmaxLoss  # noqa: E402
from sporax.nn.optim.adafactor import AdaFactor  # noqa: E402
from sporax.nn.layer.thor_layers import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor  # noqa: E402
from sporax.nn.wrap.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell  # noqa: E402


def __getattr__(name):
    # mindspore.nn.probability is an attribute of mindspore.nn; sporax loads it on first use (import cost).
    if name == "probability":
        import importlib
        return importlib.import_module("sporax.nn.probability")
    raise AttributeError(f"module 'sporax.nn' has no attribute '{name}'")

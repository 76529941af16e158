"""Mixed precision and loss scaling (``mindspore.amp``)."""
from sporax.nn.wrap.loss_scale import all_finite
from sporax.train.amp.loss_scale import (DynamicLossScaleManager, DynamicLossScaler, FixedLossScaleManager,
                                         LossScaleManager, LossScaler, StaticLossScaler)
from sporax.train.amp.loss_scale import _grad_scale_map, _grad_unscale_map  # (used by MindSpore's docstrings)
from sporax.train.amp.mixed_precision import (auto_mixed_precision, build_train_network, custom_mixed_precision,
                                              get_black_list, get_white_list)
from sporax.train.amp.mixed_precision import AMP_BLACK_LIST, _auto_black_list

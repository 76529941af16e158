"""``nn.OptTFTWrapper``: the optimizer wrapper of MindIO's training fault tolerance (TFT).

MindSpore's wrapper reports to the MindIO TFT service before and after each optimizer update, so
that a failed Ascend device can be replaced and training resumed. It runs only on Ascend, in
GRAPH mode, with ``MS_ENABLE_TFT`` switching on one of ``TTP:1``/``UCE:1``/``ARF:1``; anywhere
else its constructor raises a ValueError. sporax runs on CPU/GPU/TPU (``device_target`` is never
Ascend here), so it raises the same errors as MindSpore on those devices.

Example:
    >>> import sporax as ms
    >>> net = ms.nn.Dense(2, 2)
    >>> ms.nn.OptTFTWrapper(ms.nn.SGD(net.trainable_params(), 0.1))
    Traceback (most recent call last):
    ...
    ValueError: MindIO TFT regitster need custom switch on[MS_ENABLE_TFT='{TTP:1,UCE:1,ARF:1}']!
"""
import os

from sporax.core import context
from sporax.nn.optim.optimizer import Optimizer


class OptTFTWrapper(Optimizer):
    """Wrap ``opt`` to report its updates to MindIO TFT (Ascend only; see the module docstring).

    Args:
        opt (Optimizer): the optimizer to wrap.
        kwargs: unused (MindSpore's signature).

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of ``opt``'s parameters.

    Outputs:
        What ``opt`` returns.

    Raises:
        TypeError: ``opt`` is not an Optimizer.
        ValueError: ``MS_ENABLE_TFT`` does not switch TFT on, or the device is not Ascend.
    """

    def __init__(self, opt, **kwargs):
        if not isinstance(opt, Optimizer):
            raise TypeError(f"For 'OptTFTWrapper', the argument 'opt' must be Optimizer type, but got {type(opt)}.")
        super().__init__(opt.learning_rate, opt._parameters)
        switches = os.getenv("MS_ENABLE_TFT", "")
        if not any(switch in switches for switch in ("TTP:1", "UCE:1", "ARF:1")):
            raise ValueError("MindIO TFT regitster need custom switch on[MS_ENABLE_TFT='{TTP:1,UCE:1,ARF:1}']!")

        if context.get_context("device_target") != "Ascend":
            raise ValueError("MindIO adataper only support on Ascend device!")
        raise NotImplementedError("OptTFTWrapper: the MindIO TFT service that receives the optimizer's reports "
                                  "is not available to sporax; pass the optimizer itself (without OptTFTWrapper).")

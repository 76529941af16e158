"""``ConvertModelUtils`` (``mindspore.train.train_thor``): turn a Model into a THOR Model when THOR is used.

Only a ``Model`` whose optimizer is THOR needs converting; sporax has no THOR optimizer (``nn.thor``
raises ``NotImplementedError``), so every Model it can build comes back unchanged, as MindSpore
returns it for first-order optimizers.
"""
from sporax.nn.optim.optimizer import Optimizer


class ConvertModelUtils:
    """Convert a ``Model`` for the THOR optimizer (a no-op for every other optimizer).

    Example:
        >>> model = ConvertModelUtils().convert_to_thor_model(model, network=net, optimizer=opt)  # doctest: +SKIP
    """

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None, amp_level="O0",
                              loss_scale_manager=None, keep_batchnorm_fp32=False):
        """Return ``model`` itself: it only changes for a THOR optimizer, which sporax does not provide.

        Args:
            model (Model): the Model built on ``network`` and ``optimizer``.
            network (Cell), loss_fn (Cell), optimizer (Optimizer), metrics, amp_level, loss_scale_manager,
            keep_batchnorm_fp32: the arguments the Model was built with.
        """
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'convert_to_thor_model', optimizer must be an Optimizer, got "
                            f"{type(optimizer).__name__}.")
        return model

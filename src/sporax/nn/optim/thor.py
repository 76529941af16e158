"""``nn.thor``: MindSpore's THOR second-order optimizer is not implemented in sporax.

THOR (Trace-based Hardware-driven layer-ORiented natural gradient) keeps per-layer Kronecker
factors of the Fisher matrix, built by THOR-specific Dense/Conv2d layers and a ``ModelThor`` loop;
sporax has none of these, so constructing it raises ``NotImplementedError`` with the alternatives.
"""


def thor(net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0, batch_size=32,
         use_nesterov=False, decay_filter=lambda x: x.name not in [], split_indices=None, enable_clip_grad=False,
         frequency=100):
    """Raise ``NotImplementedError``: THOR is not available in sporax.

    Raises:
        NotImplementedError: always; use ``nn.Momentum`` (what THOR's zoo scripts fall back to with
        ``optimizer: Momentum`` in their config) or ``nn.Adam``.
    """
    raise NotImplementedError(
        "mindspore.nn.thor (the THOR second-order optimizer) is not implemented by sporax. Use a first-order "
        "optimizer instead: the model zoo scripts select one in their config (e.g. optimizer: 'Momentum').")

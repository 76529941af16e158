"""``ConvReparam``: a 2-D convolution whose kernel (and bias) are sampled from normal posteriors at every call.

As in MindSpore 2.10 the layer is a ``Conv2d`` whose own ``weight`` (and ``bias``) Parameters are kept but frozen
(``requires_grad=False``, unused): the trainable Parameters are the posteriors' means and untransformed
standard deviations.
"""
from sporax import ops
from sporax.nn.layer.conv import Conv2d, positive_ints
from sporax.nn.probability.bnn_layers.layer_distribution import NormalPrior, normal_post_fn
from sporax.nn.probability.bnn_layers.variational_weights import VariationalWeights


class ConvReparam(VariationalWeights, Conv2d):
    """A 2-D convolution with a kernel sampled from its posterior (reparameterisation).

    Args:
        in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1, group=1:
            the convolution's, as for ``nn.Conv2d``.
        has_bias (bool): whether a sampled bias is added. Default: False.
        weight_prior_fn, weight_posterior_fn, bias_prior_fn, bias_posterior_fn: the priors (normal ones) and the
            posterior factories ``f(name, shape)`` of the kernel and the bias, as for ``DenseReparam``.

    Inputs:
        - **x** (Tensor) -- (N, in_channels, H, W).

    Outputs:
        Tensor (N, out_channels, H_out, W_out).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"Attr 'pad_mode' of 'Conv2d' Op passed {pad_mode}, should be one of values in "
                             f"'valid', 'same', 'pad'.")
        if isinstance(group, int) and group > 0 and isinstance(in_channels, int) and in_channels % group:
            raise ValueError(f"For 'ConvReparam', the attr 'in_channels' must be divisible by attr 'group', but got "
                             f"'in_channels': {in_channels} and 'group': {group}.")
        # Checked here so that the errors name this Cell rather than Conv2d.
        kernel_size, stride, dilation = (positive_ints("ConvReparam", name, value, 2) for name, value in
                                         (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)))
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                         has_bias, weight_init="normal", bias_init="zeros")
        self.weight.requires_grad = False
        if self.has_bias:
            self.bias.requires_grad = False
        self.shape = [self.out_channels, self.in_channels // self.group, *self.kernel_size]
        self._set_distributions(self.shape, weight_prior_fn, weight_posterior_fn, bias_prior_fn, bias_posterior_fn)

    def construct(self, x):
        outputs = ops.conv2d(x, self.weight_posterior("sample"), None, self.stride, self.pad_mode, self.padding,
                             self.dilation, self.group)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        return outputs

    def extend_repr(self):
        return (f"in_channels={self.in_channels}, out_channels={self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, {self._distribution_repr()}")

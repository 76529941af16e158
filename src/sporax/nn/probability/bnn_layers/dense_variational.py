"""``DenseReparam`` and ``DenseLocalReparam``: dense layers with weights sampled from a normal posterior.

``DenseReparam`` samples the weight matrix once per call (reparameterisation); ``DenseLocalReparam`` samples the
outputs directly from their normal distribution ``N(x @ mean.T, sqrt(x**2 @ sd.T**2))`` (local
reparameterisation, lower variance).
"""
from sporax import ops
from sporax.core import validator
from sporax.nn.cell import Cell
from sporax.nn.layer.activation import get_activation
from sporax.nn.probability.bnn_layers.layer_distribution import NormalPrior, normal_post_fn
from sporax.nn.probability.bnn_layers.variational_weights import VariationalWeights
from sporax.nn.probability.distribution.normal import Normal


class _DenseVariational(VariationalWeights, Cell):
    """The base of the dense Bayesian layers.

    Args:
        in_channels (int): the size of the last input axis, > 0.
        out_channels (int): the size of the last output axis, > 0.
        activation (Union[str, Cell, None]): applied to the outputs ('relu' or a Cell instance). Default: None.
        has_bias (bool): whether a sampled bias is added. Default: True.
        weight_prior_fn (Union[Cell, type]): the prior of the weight (a normal one). Default: NormalPrior.
        weight_posterior_fn (function): ``f(name, shape)`` returning the weight posterior. Default: normal_post_fn.
        bias_prior_fn (Union[Cell, type]): the prior of the bias. Default: NormalPrior.
        bias_posterior_fn (function): ``f(name, shape)`` returning the bias posterior. Default: normal_post_fn.

    Inputs:
        - **x** (Tensor) -- (N, in_channels).

    Outputs:
        Tensor (N, out_channels).
    """

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels = validator.check_positive_int(in_channels, "in_channels", type(self).__name__)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", type(self).__name__)
        self.has_bias = validator.check_bool(has_bias, "has_bias", type(self).__name__)
        self._set_distributions([self.out_channels, self.in_channels], weight_prior_fn, weight_posterior_fn,
                                bias_prior_fn, bias_posterior_fn)
        self.activation_flag = bool(activation)
        if isinstance(activation, str):
            activation = get_activation(activation)
        elif activation and not isinstance(activation, Cell):
            raise ValueError("The type of `activation` is wrong.")
        self.activation = activation

    def construct(self, x):
        outputs = self._apply_variational_weight(x)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        if self.activation_flag:
            outputs = self.activation(outputs)
        return outputs

    def extend_repr(self):
        text = f"in_channels={self.in_channels}, out_channels={self.out_channels}, {self._distribution_repr()}"
        if self.activation_flag:
            text += f", activation={self.activation}"
        return text


class DenseReparam(_DenseVariational):
    """A dense layer ``activation(x @ weight.T + bias)`` whose weight and bias are sampled from their posteriors
    at every call (reparameterisation: the samples are differentiable in the posteriors' parameters).

    Args, Inputs, Outputs: those of ``_DenseVariational`` (in_channels, out_channels, activation=None,
    has_bias=True, weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior,
    bias_posterior_fn=normal_post_fn).
    """

    def _apply_variational_weight(self, inputs):
        return ops.matmul(inputs, ops.transpose(self.weight_posterior("sample"), (1, 0)))


class DenseLocalReparam(_DenseVariational):
    """A dense layer whose pre-activation outputs are sampled from ``N(x @ mean.T, sqrt(x**2 @ (sd**2).T))``,
    the exact distribution of ``x @ weight.T`` under the weight posterior (local reparameterisation).

    Args, Inputs, Outputs: those of ``DenseReparam``.
    """

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__(in_channels, out_channels, activation, has_bias, weight_prior_fn, weight_posterior_fn,
                         bias_prior_fn, bias_posterior_fn)
        self.normal = Normal()

    def _apply_variational_weight(self, inputs):
        mean = ops.matmul(inputs, ops.transpose(self.weight_posterior("mean"), (1, 0)))
        variance = ops.matmul(ops.square(inputs), ops.transpose(ops.square(self.weight_posterior("sd")), (1, 0)))
        return self.normal("sample", mean=mean, sd=ops.sqrt(variance))

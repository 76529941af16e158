"""What the dense and convolutional Bayesian layers share: their prior/posterior pairs, the sampled bias and the
KL loss.

``compute_kl_loss`` is MindSpore 2.10's: the prior's ``kl_loss`` against the posterior's parameters, i.e.
``KL(prior || posterior)`` summed over the weight (and bias) elements.
"""
from sporax import ops
from sporax.nn.probability.bnn_layers.distribution_checks import check_posterior, check_prior


class VariationalWeights:
    """The mixin of the Bayesian layers: call ``_set_distributions`` in ``__init__``."""

    def _set_distributions(self, weight_shape, weight_prior_fn, weight_posterior_fn, bias_prior_fn,
                           bias_posterior_fn):
        self.weight_prior = check_prior(weight_prior_fn, "weight_prior_fn")
        self.weight_posterior = check_posterior(weight_posterior_fn, shape=weight_shape, param_name="bnn_weight",
                                                arg_name="weight_posterior_fn")
        if self.has_bias:
            self.bias_prior = check_prior(bias_prior_fn, "bias_prior_fn")
            self.bias_posterior = check_posterior(bias_posterior_fn, shape=[self.out_channels],
                                                  param_name="bnn_bias", arg_name="bias_posterior_fn")

    def apply_variational_bias(self, inputs):
        """Add a bias sampled from the bias posterior to the channel axis (1) of ``inputs``."""
        return ops.bias_add(inputs, self.bias_posterior("sample"))

    def compute_kl_loss(self):
        """The KL divergence of the weight (and bias) prior from its posterior, summed to a scalar."""
        kl_loss = self._kl_of(self.weight_prior, self.weight_posterior)
        if self.has_bias:
            kl_loss = kl_loss + self._kl_of(self.bias_prior, self.bias_posterior)
        return kl_loss

    @staticmethod
    def _kl_of(prior, posterior):
        kl = prior("kl_loss", posterior("get_dist_type"), *posterior("get_dist_args"))
        return ops.reduce_sum(kl)

    def _distribution_repr(self):
        text = (f"weight_mean={self.weight_posterior.mean}, weight_std={self.weight_posterior.untransformed_std}, "
                f"has_bias={self.has_bias}")
        if self.has_bias:
            text += f", bias_mean={self.bias_posterior.mean}, bias_std={self.bias_posterior.untransformed_std}"
        return text

"""``NormalPrior`` and ``NormalPosterior``: the normal distributions of a Bayesian layer's weights.

The posterior's parameters are trainable: a mean and an untransformed standard deviation ``u``, the standard
deviation being ``1e-6 + log(1 + exp(u))`` (softplus keeps it > 0; the 1e-6 keeps it off zero), as MindSpore 2.10.

Example:
    >>> from sporax.nn.probability.bnn_layers import NormalPosterior
    >>> [p.name for p in NormalPosterior("w", [2, 3]).trainable_params()]
    ['w_mean', 'w_untransformed_std']
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.initializer import Normal as NormalInitializer
from sporax.core.initializer import initializer
from sporax.core.parameter import Parameter
from sporax.nn.cell import Cell
from sporax.nn.probability.distribution.normal import Normal


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class NormalPrior(Cell):
    """A fixed normal distribution, the prior of a Bayesian layer's weights.

    Args:
        dtype (mindspore.dtype): the float type of the distribution. Default: mindspore.float32.
        mean (int, float): the mean. Default: 0.
        std (int, float): the standard deviation. Default: 0.1.

    Inputs:
        - **inputs** -- a distribution method's name ('sample', 'kl_loss', ...) and its arguments.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, dtype=mstype.float32, mean=0, std=0.1):
        super().__init__()
        self.normal = Normal(mean, std, dtype=dtype)

    def construct(self, *inputs):
        return self.normal(*inputs)


class NormalPosterior(Cell):
    """A normal distribution with a trainable mean and standard deviation.

    Args:
        name (str): the prefix of the Parameters' names (``name + '_mean'``, ``name + '_untransformed_std'``).
        shape (list, tuple): the shape of the mean and the standard deviation.
        dtype (mindspore.dtype): the float type of the Parameters. Default: mindspore.float32.
        loc_mean (int, float): the mean of the normal initializer of the mean. Default: 0.
        loc_std (int, float): the standard deviation of that initializer, >= 0. Default: 0.1.
        untransformed_scale_mean (int, float): the mean of the normal initializer of the untransformed standard
            deviation. Default: -5.
        untransformed_scale_std (int, float): the standard deviation of that initializer, >= 0. Default: 0.1.

    Inputs:
        - **inputs** -- a distribution method's name ('sample', 'mean', 'sd', 'get_dist_args', ...) and its
          arguments; the trainable mean and standard deviation are passed along.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, name, shape, dtype=mstype.float32, loc_mean=0, loc_std=0.1, untransformed_scale_mean=-5,
                 untransformed_scale_std=0.1):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError("The type of `name` must be `str`")
        if not isinstance(shape, (tuple, list)):
            raise TypeError("The type of `shape` must be `tuple` or `list`")
        if not _is_number(loc_mean):
            raise TypeError("The type of `loc_mean` must be `int` or `float`")
        if not _is_number(untransformed_scale_mean):
            raise TypeError("The type of `untransformed_scale_mean` must be `int` or `float`")
        # MindSpore raises TypeError (not ValueError) for a negative standard deviation too.
        if not (_is_number(loc_std) and loc_std >= 0):
            raise TypeError("The type of `loc_std` must be `int` or `float` and its value must > 0")
        if not (_is_number(untransformed_scale_std) and untransformed_scale_std >= 0):
            raise TypeError("The type of `untransformed_scale_std` must be `int` or `float` and its value must > 0")
        shape = tuple(shape)
        self.mean = Parameter(initializer(NormalInitializer(loc_std, loc_mean), shape, dtype), name=name + "_mean")
        self.untransformed_std = Parameter(
            initializer(NormalInitializer(untransformed_scale_std, untransformed_scale_mean), shape, dtype),
            name=name + "_untransformed_std")
        self.normal = Normal()

    def std(self):
        """The standard deviation, ``1e-6 + softplus(untransformed_std)``."""
        return 1e-6 + ops.log(ops.exp(self.untransformed_std) + 1)

    def construct(self, *inputs):
        return self.normal(*inputs, mean=self.mean, sd=self.std())


def normal_post_fn(name, shape):
    """The default posterior factory of the Bayesian layers: a ``NormalPosterior`` with default initializers."""
    return NormalPosterior(name=name, shape=shape)

"""The checks of a Bayesian layer's prior and posterior arguments (MindSpore 2.10's TypeErrors): only normal
distributions are supported."""
from sporax.nn.cell import Cell
from sporax.nn.probability.distribution.normal import Normal


def check_prior(prior_fn, arg_name):
    """The prior Cell: ``prior_fn`` itself when a Cell, else ``prior_fn()``; its distributions must be normal ones
    with a mean and a standard deviation given at construction."""
    prior = prior_fn if isinstance(prior_fn, Cell) else prior_fn()
    for cell_name, distribution in prior.name_cells().items():
        if cell_name != "normal":
            raise TypeError(f"The type of distribution of `{arg_name}` must be `normal`")
        if not isinstance(distribution, Normal) or any(value is None for value in distribution.default_parameters):
            raise TypeError(f"The input form of `{arg_name}` is incorrect")
    return prior


def check_posterior(posterior_fn, shape, param_name, arg_name):
    """The posterior Cell ``posterior_fn(shape=shape, name=param_name)``; its distributions must be normal."""
    try:
        posterior = posterior_fn(shape=shape, name=param_name)
    except TypeError as error:
        raise TypeError(f"The type of `{arg_name}` must be `NormalPosterior`") from error
    for cell_name, _ in posterior.name_cells().items():
        if cell_name != "normal":
            raise TypeError(f"The type of distribution of `{arg_name}` must be `normal`")
    return posterior

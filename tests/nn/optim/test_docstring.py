"""Optimizer docstrings completed from the shared template: every argument documented, with the
default its signature really has, and an example that runs."""
import inspect

import pytest

from sporax import mint, nn
from sporax.nn.optim.docstring import docstring_template

NN_OPTIMIZERS = [nn.Momentum, nn.SGD, nn.FTRL, nn.Adam, nn.AdamWeightDecay, nn.RMSProp, nn.Adagrad, nn.Lamb,
                 nn.AdaMax, nn.Adadelta, nn.ProximalAdagrad, nn.Rprop, nn.ASGD]
MINT_OPTIMIZERS = [mint.optim.SGD, mint.optim.Adam, mint.optim.AdamW, mint.optim.Adamax, mint.optim.NAdam,
                   mint.optim.RAdam, mint.optim.Adadelta, mint.optim.Adagrad, mint.optim.ASGD, mint.optim.RMSprop,
                   mint.optim.Rprop]
OPTIMIZERS = NN_OPTIMIZERS + MINT_OPTIMIZERS


def _section(doc, title):
    lines = doc.split(f"\n{title}:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line.strip() for line in lines]


@pytest.mark.parametrize("optimizer", OPTIMIZERS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_argument_documented_with_its_real_default(optimizer):
    doc = inspect.getdoc(optimizer)
    entries = []
    for line in doc.split("\nArgs:\n", 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith(" " * 8):  # a continuation line
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip())
    names = [entry.split(" ", 1)[0].rstrip(":") for entry in entries]
    arguments = [p for p in inspect.signature(optimizer.__init__).parameters.values()
                 if p.name != "self" and p.kind is not p.VAR_KEYWORD]
    assert names == [p.name for p in arguments]
    for entry, parameter in zip(entries, arguments):
        if parameter.default is parameter.empty:
            assert "Default:" not in entry
        else:
            assert entry.endswith(f"Default: {parameter.default!r}."), entry
    gradients = list(inspect.signature(optimizer.construct).parameters)[1]
    assert _section(doc, "Inputs")[0].startswith(f"- **{gradients}** (tuple[Tensor])")


@pytest.mark.parametrize("optimizer", OPTIMIZERS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_example_builds_the_optimizer(optimizer):
    code = "\n".join(line[4:] for line in _section(inspect.getdoc(optimizer), "Example") if line.startswith(">>> "))
    namespace = {}
    exec(code, namespace)  # noqa: S102 - the docstring's own example
    assert any(type(value) is optimizer for value in namespace.values())


def _optimizer_with(doc):
    class Plain:
        __doc__ = doc

        def __init__(self, lr=0.1, momentum=0.0):
            pass

        def construct(self, gradients):
            return True
    return Plain


def test_undocumented_or_unknown_argument_is_refused():
    documented = docstring_template("ms.nn", {})
    with pytest.raises(TypeError, match="does not document the argument 'momentum'"):
        documented(_optimizer_with("A plain optimizer."))
    with pytest.raises(TypeError, match=r"documents \['beta'\], which its __init__ does not take"):
        documented(_optimizer_with("A plain optimizer.\n\nArgs:\n    momentum (float): m.\n    beta (float): b.\n"))
    plain = documented(_optimizer_with("A plain optimizer.\n\nArgs:\n    momentum (float): the momentum,\n"
                                       "        over two lines.\n"))
    assert "momentum (float): the momentum,\n            over two lines. Default: 0.0." in plain.__doc__

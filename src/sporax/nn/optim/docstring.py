"""Optimizer docstrings from one template: an argument many optimizers share is described once.

Most of an optimizer's documentation (``params``, the learning rate, weight decay, the Inputs and
Outputs, the example) is the same from class to class. A class decorated with what
``docstring_template`` returns writes only its summary and its own arguments; the decorator adds
the shared arguments in signature order, appends each default read from the signature (so a
documented default cannot drift from the real one) and the shared sections. An argument of the
signature documented nowhere, or a documented one the signature lacks, raises at import, so the
docs stay complete.
"""
import inspect
import re

_INDENT = "    "
# What the arguments of several optimizers mean (nn's and mint.optim's names), one entry each.
ARGUMENTS = {
    "lr": "lr (float): learning rate.",
    "learning_rate": "learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): a fixed rate, a "
                     "per-step list or 1-D Tensor, or a schedule of ``global_step`` (see ``Optimizer``).",
    "betas": "betas (tuple[float, float]): decay rates of the running averages of the gradient and of its square.",
    "beta1": "beta1 (float): decay rate of the first moment, in [0, 1).",
    "beta2": "beta2 (float): decay rate of the second moment, in [0, 1).",
    "eps": "eps (float): added to the denominator for numerical stability.",
    "loss_scale": "loss_scale (float): the gradients are divided by it, > 0.",
    "use_locking": "use_locking (bool): accepted for compatibility (updates here are functional).",
    "maximize": "maximize (bool): ascend the objective instead of descending it.",
}
# An argument's entry starts one indent in: ``name (type): meaning``; deeper lines continue it.
_ENTRY = re.compile(r"^ {4}(\w+)[ :(]")


def docstring_template(namespace, arguments):
    """A class decorator that completes an optimizer's docstring from shared parts.

    Args:
        namespace (str): where the example finds the class, e.g. ``"ms.nn"`` (with ``import sporax as ms``);
            the example is used when the class's docstring has none.
        arguments (dict[str, str]): the family's own shared entries, ``"name (type): meaning."`` by
            argument name, over ``ARGUMENTS``.

    Example:
        >>> from sporax.nn.optim.docstring import docstring_template
        >>> documented = docstring_template("ms.nn", {"momentum": "momentum (float): the momentum."})
        >>> @documented
        ... class Plain:
        ...     '''A plain optimizer.'''
        ...     def __init__(self, lr=0.1, momentum=0.9):
        ...         pass
        ...     def construct(self, gradients):
        ...         return True
        >>> "momentum (float): the momentum. Default: 0.9." in Plain.__doc__
        True
    """
    shared_arguments = dict(ARGUMENTS, **arguments)
    example = (">>> import sporax as ms\n>>> net = ms.nn.Dense(3, 2)\n"
               f">>> optimizer = {namespace}.{{name}}(net.trainable_params())")

    def complete(cls):
        cls.__doc__ = _completed_docstring(cls, shared_arguments, example)
        return cls
    return complete


def _completed_docstring(cls, shared_arguments, example):
    text, _, own_example = inspect.cleandoc(cls.__doc__).partition("\nExample:\n")
    head, _, own_block = text.partition("\nArgs:\n")
    own = _entries(own_block)
    signature = inspect.signature(cls.__init__)
    arguments = [parameter for parameter in list(signature.parameters.values())[1:]
                 if parameter.kind is not parameter.VAR_KEYWORD or parameter.name in own]
    unknown = set(own) - {parameter.name for parameter in arguments}
    if unknown:
        raise TypeError(f"The docstring of {cls.__name__} documents {sorted(unknown)}, which its __init__ "
                        "does not take: remove or rename the entries.")
    lines = head.rstrip().splitlines() + ["", "Args:"]
    for parameter in arguments:
        entry = own.get(parameter.name) or [shared_arguments.get(parameter.name)]
        if entry[0] is None:
            raise TypeError(f"The docstring of {cls.__name__} does not document the argument "
                            f"'{parameter.name}': add it under Args (no shared entry exists).")
        entry = [_INDENT + line.strip() if index == 0 else _INDENT * 2 + line.strip()
                 for index, line in enumerate(entry)]
        if parameter.default is not parameter.empty and "Default:" not in " ".join(entry):
            entry[-1] += f" Default: {parameter.default!r}."
        lines += entry
    gradients = list(inspect.signature(cls.construct).parameters)[1]
    lines += ["", "Inputs:", f"{_INDENT}- **{gradients}** (tuple[Tensor]): one gradient per parameter, in the "
              "order of the parameters (and groups).", "", "Outputs:", f"{_INDENT}bool: True.", "", "Example:"]
    lines += own_example.splitlines() if own_example else [_INDENT + line for line in
                                                         example.format(name=cls.__name__).splitlines()]
    return "\n".join(lines[:1] + [_INDENT + line if line else line for line in lines[1:]]) + "\n" + _INDENT


def _entries(block):
    """The Args block's entries by argument name, each as its list of lines."""
    entries = {}
    name = None
    for line in block.splitlines():
        match = _ENTRY.match(line)
        if match:
            name = match.group(1)
            entries[name] = [line]
        elif line.strip() and name is not None:
            entries[name].append(line)
    return entries

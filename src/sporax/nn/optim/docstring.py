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
# An argument's entry starts one indent in: ``name (type): meaning``; deeper lines continue it.
_ENTRY = re.compile(r"^ {4}(\w+)[ :(]")


def docstring_template(shared_arguments, example):
    """A class decorator that completes an optimizer's docstring from shared parts.

    Args:
        shared_arguments (dict[str, str]): argument name to its entry, ``"name (type): meaning."``.
        example (str): the example used when the class's docstring has none; ``{name}`` is the
            class's name.

    Example:
        >>> from sporax.nn.optim.docstring import docstring_template
        >>> documented = docstring_template({"lr": "lr (float): learning rate."}, ">>> {name}(lr=0.1)")
        >>> @documented
        ... class Plain:
        ...     '''A plain optimizer.'''
        ...     def __init__(self, lr=0.1):
        ...         pass
        ...     def construct(self, gradients):
        ...         return True
        >>> "lr (float): learning rate. Default: 0.1." in Plain.__doc__
        True
    """
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

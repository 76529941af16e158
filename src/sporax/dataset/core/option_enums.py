"""MindSpore's option enums of the dataset API (``Border``, ``Shuffle``, ``WindowType`` ...), one row each.

Every such enum is a list of choices whose member names are the upper-cased values (``"edge"`` is
``EDGE``) or, for the integer ones, the names numbered from 0; a row states the choices once.

Example:
    >>> Border = string_enum("Border", "sporax.dataset.vision", "How padding fills the new border.",
    ...                      "constant", "edge")
    >>> Border.EDGE == "edge", Border("constant").name
    (True, 'CONSTANT')
"""
import enum


def string_enum(name, module, doc, *values):
    """A ``str`` Enum ``name`` of ``module`` whose members are ``VALUE.upper() = value``."""
    members = [(value.upper(), value) for value in values]
    return _made(enum.Enum(name, members, type=str, module=module, qualname=name), doc)


def int_enum(name, module, doc, *names):
    """An IntEnum ``name`` of ``module`` whose members ``names`` are numbered 0, 1, 2 ..."""
    return _made(enum.IntEnum(name, [(member, number) for number, member in enumerate(names)], module=module,
                              qualname=name), doc)


def _made(cls, doc):
    cls.__doc__ = doc
    return cls

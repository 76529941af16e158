"""f-strings in converted code: one formatted from a tensor being compiled keeps the tensor.

MindSpore's graph runs such an f-string in Python when the program runs (its JIT Fallback), so
``print(f"loss: {loss}")`` writes ``loss: 5.0``, each tensor as NumPy writes its value. Its graph ignores
every format spec and conversion (``f"{n:>6}|{s!r}"`` is ``5|ab``), known values too. ``formatted``
returns the plain string when every value is known; otherwise a ``FormattedText`` (the string with the
tensor's placeholder) that ``graph_print`` writes at run time. ``"x is {}".format(x)`` on a literal template
keeps a traced tensor the same way (``format_template``), but formats known values as Python does, their
format specs and conversions applied (``'{:.1f} {!r}'.format(1.5, 's')`` is ``1.5 's'`` there).
"""
import string

from sporax.core.tensor import Tensor, concrete
from sporax.state.fallback import FormattedText


def _traced(value):
    """A Tensor whose value exists only when the compiled program runs."""
    return isinstance(value, Tensor) and concrete(value._array) is None


def formatted(parts, *values):
    """The f-string of ``parts`` (literal texts, and (conversion, format spec) per value) and ``values``."""
    texts, pieces, remaining = [], [], iter(values)
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
            pieces.append(part)
            continue
        value = next(remaining)  # part: its (conversion, format spec[, applied]); an f-string drops them
        if _traced(value):
            texts.append(str(value))
            pieces.append(value)
            continue
        text = _python_format(value, *part[:2]) if len(part) > 2 else str(value)
        texts.append(text)
        pieces.append(text)
    text = "".join(texts)
    return FormattedText(text, pieces) if any(isinstance(piece, Tensor) for piece in pieces) else text


_CONVERSIONS = {ord("s"): str, ord("r"): repr, ord("a"): ascii}


def _python_format(value, conversion, spec):
    return format(_CONVERSIONS.get(conversion, lambda item: item)(value), spec)


def format_template(template, count):
    """The ``formatted`` parts of ``template.format(*values)`` and, per value slot, the index of the positional
    argument it reads; None where the template needs more than plain positional fields ('{}', '{0}', with a
    conversion and a literal spec): attribute or item access, keyword fields, a nested spec, or an argument
    that is not there leave the call to Python."""
    parts, indices, automatic = [], [], 0
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError:
        return None  # a malformed template: str.format raises its own error
    for literal, field, spec, conversion in pieces:
        if literal:
            parts.append(literal)
        if field is None:
            continue
        if field == "":
            index, automatic = automatic, automatic + 1
        elif field.isdigit():
            index = int(field)
        else:
            return None
        if index >= count or "{" in (spec or ""):
            return None
        parts.append((ord(conversion) if conversion else -1, spec or "", True))  # str.format applies them
        indices.append(index)
    if set(indices) != set(range(count)):
        return None  # an argument no field reads is still evaluated by Python: leave the call to it
    return tuple(parts), indices

"""Argument checks of the DataLoader API, with MindSpore 2.10's exception types and messages."""


def check_type(value, name, valid_type, invalid_type=(), allow_none=False):
    """Raise ``TypeError`` unless ``value`` is a ``valid_type`` (and not an ``invalid_type``: bool for ints)."""
    if allow_none and value is None:
        return
    if not isinstance(value, valid_type) or isinstance(value, invalid_type):
        raise TypeError(f"{name} must be {valid_type}, but got: {type(value).__name__}.")


def _compare(value, name, bad, words):
    if value is None:
        return
    try:
        failed = bad(value)
    except TypeError as exc:
        raise TypeError(f"{name} must be a number, but got: {type(value).__name__}.") from exc
    if failed:
        raise ValueError(f"{name} must be {words}, but got: {value}.")


def check_positive(value, name):
    """Raise ``ValueError`` where ``value`` (``None`` passes) is not above zero."""
    _compare(value, name, lambda number: number <= 0, "positive")


def check_non_negative(value, name):
    """Raise ``ValueError`` where ``value`` (``None`` passes) is below zero."""
    _compare(value, name, lambda number: number < 0, "non-negative")


def check_exclusive(condition, name, description):
    """Raise ``ValueError`` where ``name`` was given although ``description`` rules it out."""
    if condition:
        raise ValueError(f"{name} cannot be specified {description}.")


def check_exact_type(value, name, expected, expected_words):
    """RandomSampler/DistributedSampler's own form: ``'<name> must be <words>, but got: <type>'``."""
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise TypeError(f"{name} must be {expected_words}, but got: {type(value).__name__}")

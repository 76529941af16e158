"""``cell_attr_register`` (``mindspore._extends``): a Cell's ``__init__`` records its arguments.

MindSpore keys its compile cache on ``cell_init_args``, the class name and the construction arguments
as one string; built-in Cells decorate ``__init__`` with this so the string names what was passed, or
the attributes listed. sporax keeps the same string (libraries read and compare it).

Example:
    >>> from sporax import nn
    >>> from sporax.graph import cell_attr_register
    >>> class Scale(nn.Cell):
    ...     @cell_attr_register
    ...     def __init__(self, factor, bias=0.0):
    ...         super().__init__()
    ...         self.factor = factor
    >>> Scale(2.0).cell_init_args
    'Scaledict_values([2.0])'
"""
import functools
import inspect


def cell_attr_register(fn=None, attrs=None):
    """Decorate a Cell's ``__init__`` so ``cell_init_args`` records its arguments (or ``attrs``).

    Args:
        fn (function): the ``__init__`` to wrap. When None, returns a decorator taking it.
        attrs (list[str] | str): names of attributes (read after ``__init__``) to record instead of the
            arguments; None records the bound arguments as given (defaults not filled in).

    Returns:
        function, the wrapped ``__init__``.
    """
    if attrs is not None and not isinstance(attrs, (list, str)):
        raise ValueError(f"For 'cell_attr_register', attrs must be a list of str or a str, "
                         f"but got {type(attrs).__name__}.")
    if isinstance(attrs, list) and not all(isinstance(item, str) for item in attrs):
        raise ValueError("For 'cell_attr_register', every item of attrs must be a str (an attribute name).")

    def wrap(init):
        @functools.wraps(init)
        def recorded_init(self, *args, **kwargs):
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound[next(iter(bound))]  # self
                recorded = bound.values()
            init(self, *args, **kwargs)
            if isinstance(attrs, list):
                recorded = [getattr(self, name) for name in attrs if hasattr(self, name)]
            elif isinstance(attrs, str):
                recorded = getattr(self, attrs) if hasattr(self, attrs) else []
            self.cell_init_args = type(self).__name__ + str(recorded)

        return recorded_init

    if fn is not None:
        return wrap(fn)
    return wrap

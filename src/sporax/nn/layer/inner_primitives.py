"""The Primitive objects MindSpore's layers hold as attributes (``LayerNorm.layer_norm``, ``Conv2d.conv2d``).

sporax's layers compute through the op table's kernels directly, but libraries subclass MindSpore's
layers and call these attributes in their own ``construct`` (mindcv's ``ConvNextLayerNorm`` calls
``self.layer_norm(x, self.gamma, self.beta)``; its ``StdConv2d`` calls ``self.conv2d(x, w)``). Each
is declared on the layer class as an ``InnerPrimitive``: the Primitive is built from the layer's own
settings on first access, so it computes exactly what the layer does, and layers that nobody reaches
into pay nothing.
"""


class InnerPrimitive:
    """A layer attribute holding the Primitive ``build(cell)`` returns, made on first access.

    Non-data descriptor: the Primitive is cached in the instance's ``__dict__``, and a subclass that
    assigns its own object under the same name (a Primitive, a child Cell, a Parameter) replaces it.

    Args:
        build (Callable[[Cell], Primitive]): makes the Primitive from the layer's settings.
    """

    def __init__(self, build):
        self.build = build
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, cell, owner=None):
        if cell is None:
            return self
        state = cell.__dict__
        for registry in ("_cells", "_params", "_buffers"):
            # A subclass's own child Cell or Parameter of that name (``self.dropout = nn.Dropout()``).
            members = state.get(registry)
            if members is not None and self.name in members:
                return members[self.name]
        primitive = self.build(cell)
        cell.__dict__[self.name] = primitive
        return primitive

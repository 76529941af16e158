"""``WithBNNLossCell``: a network and its loss, plus the KL loss of every Bayesian layer inside the network.

``loss = loss_fn(backbone(x), label) * dnn_factor + sum(layer.compute_kl_loss()) * bnn_factor``; the Bayesian
layers are found once, at construction, by walking the backbone's sub-Cells.
"""
from sporax.nn.cell import Cell
from sporax.nn.probability.bnn_layers.variational_weights import VariationalWeights


def _check_factor(value, name, relation):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"The type of `{name}` must be `int` or `float`")
    if value < 0:
        raise ValueError(f"The value of `{name}` {relation} >= 0")
    return value


class WithBNNLossCell(Cell):
    """Wrap a Bayesian network with its loss function and the KL loss of its Bayesian layers.

    Args:
        backbone (Cell): the network.
        loss_fn (Cell): the loss of ``(prediction, label)``.
        dnn_factor (int, float): the weight of ``loss_fn``'s loss, >= 0. Default: 1.
        bnn_factor (int, float): the weight of the summed KL loss, >= 0. Default: 1.

    Inputs:
        - **x** (Tensor) -- the data (N, ...).
        - **label** (Tensor) -- the labels (N, ...).

    Outputs:
        Tensor, the weighted loss (the shape of ``loss_fn``'s output).
    """

    def __init__(self, backbone, loss_fn, dnn_factor=1, bnn_factor=1):
        super().__init__(auto_prefix=False)
        # MindSpore words the two ValueErrors differently ("should" / "must"); kept verbatim.
        self.dnn_factor = _check_factor(dnn_factor, "dnn_factor", "should")
        self.bnn_factor = _check_factor(bnn_factor, "bnn_factor", "must")
        self._backbone = backbone
        self._loss_fn = loss_fn
        self.kl_loss = []
        self._add_kl_loss(self._backbone)

    def construct(self, x, label):
        backbone_loss = self._loss_fn(self._backbone(x), label)
        kl_loss = 0
        for kl_loss_function in self.kl_loss:
            kl_loss = kl_loss + kl_loss_function()
        return backbone_loss * self.dnn_factor + kl_loss * self.bnn_factor

    def _add_kl_loss(self, net):
        """Collect ``compute_kl_loss`` of each Bayesian layer below ``net``."""
        for _, layer in net.name_cells().items():
            if isinstance(layer, VariationalWeights):
                self.kl_loss.append(layer.compute_kl_loss)
            else:
                self._add_kl_loss(layer)

    @property
    def backbone_network(self):
        """The wrapped network."""
        return self._backbone

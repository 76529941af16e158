"""``mindspore.mint``: the PyTorch-style API, as name tables onto sporax's ops and Cells."""
from sporax.mint import optim

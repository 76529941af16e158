"""RNN, LSTM, GRU (stacked, bidirectional, seq_length) vs MindSpore 2.10; the single-step cells; gradients."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from tests.nn.helpers import FIXTURES, check_gradient

ORACLE = np.load(f"{FIXTURES}/nn/oracle_recurrent.npz")


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU], ids=lambda c: c.__name__)
def test_recurrent_layers_match_mindspore(cls):
    name = cls.__name__
    layer = cls(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    assert [p.name for p in layer.get_parameters()][:4] == [
        "weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1", "weight_ih_l1_reverse"]
    for parameter in layer.get_parameters():
        parameter.set_data(Tensor(ORACLE[f"{name}/{parameter.name}"]))
    x, h0 = Tensor(ORACLE[f"{name}/x"]), Tensor(ORACLE[f"{name}/h0"])
    lengths = Tensor(np.array([5, 3], np.int32))
    tolerance = 5e-5 if cls is nn.RNN else 2e-6  # MindSpore's CPU tanh is accurate to ~2e-5
    if cls is nn.LSTM:
        state = (h0, Tensor(ORACLE[f"{name}/c0"]))
        output, (hidden, cell) = layer(x, state)
        np.testing.assert_allclose(cell.asnumpy(), ORACLE[f"{name}/cn"], atol=tolerance)
        masked, (masked_hidden, _) = layer(x, state, lengths)
    else:
        output, hidden = layer(x, h0)
        masked, masked_hidden = layer(x, h0, lengths)
    np.testing.assert_allclose(output.asnumpy(), ORACLE[f"{name}/y"], atol=tolerance)
    np.testing.assert_allclose(hidden.asnumpy(), ORACLE[f"{name}/hn"], atol=tolerance)
    np.testing.assert_allclose(masked.asnumpy(), ORACLE[f"{name}/y_seq"], atol=tolerance)
    np.testing.assert_allclose(masked_hidden.asnumpy(), ORACLE[f"{name}/hn_seq"], atol=tolerance)
    assert np.all(masked.asnumpy()[1, 3:] == 0)



# Recorded from MindSpore 2.10: np.random.seed(0); nn.LSTM(3, 2, num_layers=2, bidirectional=True) (first three
# values of each Parameter, then np.random.rand()); np.random.seed(1); nn.GRU(2, 1, has_bias=False).
RECORDED_INIT = {
    "LSTM": {"weight_ih_l0": [0.069033, 0.304324, 0.145329], "weight_ih_l1_reverse": [-0.218706, 0.605398, 0.289086],
             "weight_hh_l0": [-0.539842, 0.197878, -0.504375], "bias_ih_l0": [-0.198686, -0.08905, 0.279493],
             "bias_hh_l1_reverse": [0.02574, -0.670814, -0.4137]},
    "GRU": {"weight_ih_l0": [-0.165956, 0.440649, -0.999771], "weight_hh_l0": [-0.62748, -0.308879, -0.206465]},
}


def test_initial_weights_come_from_numpys_global_generator_as_in_mindspore():
    # mindaudio's DeepSpeech2 seeds NumPy only; its LSTM then starts from MindSpore's very weights.
    np.random.seed(0)
    lstm = nn.LSTM(3, 2, num_layers=2, bidirectional=True)
    after = np.random.rand()
    np.random.seed(1)
    gru = nn.GRU(2, 1, has_bias=False)
    for layer, name in ((lstm, "LSTM"), (gru, "GRU")):
        values = {p.name: p.asnumpy().ravel()[:3] for p in layer.get_parameters()}
        for key, expected in RECORDED_INIT[name].items():
            np.testing.assert_allclose(values[key], expected, atol=1e-6, err_msg=f"{name}.{key}")
    assert [p.name for p in gru.get_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    assert round(after, 6) == 0.863856  # the same numbers drawn: NumPy's stream goes on where MindSpore's does


def test_cells_draw_numpys_generator_as_mindspore_before_initialising():
    # Recorded from MindSpore 2.10: np.random.seed(0); ms.set_seed(0); nn.LSTMCell(3, 2), then np.random.rand();
    # np.random.seed(0); nn.GRUCell(3, 2, has_bias=False), then np.random.rand().
    from sporax.core.random_state import set_seed
    np.random.seed(0)
    set_seed(0)
    cell = nn.LSTMCell(3, 2)
    values = {p.name: p.asnumpy().ravel()[:3] for p in cell.get_parameters()}
    np.testing.assert_allclose(values["weight_ih"], [0.137563, -0.017275, -0.524184], atol=1e-6)
    np.testing.assert_allclose(values["bias_hh"], [0.559328, 0.368771, -0.164944], atol=1e-6)
    assert round(np.random.rand(), 6) == 0.282807
    np.random.seed(0)
    nn.GRUCell(3, 2, has_bias=False)
    assert round(np.random.rand(), 6) == 0.359508

def test_names_inside_a_network_and_repr():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(3, 4)

    assert [p.name for p in Net().get_parameters()] == [
        "lstm.weight_ih_l0", "lstm.weight_hh_l0", "lstm.bias_ih_l0", "lstm.bias_hh_l0"]
    assert repr(nn.GRU(3, 4)) == "GRU(\n  (rnn): _DynamicGRUCPUGPU()\n  (dropout_op): Dropout(p=0.0)\n)"
    assert [p.shape for p in nn.GRU(3, 4, has_bias=False).get_parameters()] == [(12, 3), (12, 4)]


def test_cells_match_one_step_of_the_layers():
    rng = np.random.default_rng(7)
    x = Tensor(rng.standard_normal((2, 3)).astype(np.float32))
    h = Tensor(rng.standard_normal((2, 4)).astype(np.float32))
    for cell_cls, layer_cls in ((nn.RNNCell, nn.RNN), (nn.GRUCell, nn.GRU), (nn.LSTMCell, nn.LSTM)):
        cell, layer = cell_cls(3, 4), layer_cls(3, 4)
        for mine, theirs in zip(cell.get_parameters(), layer.get_parameters()):
            theirs.set_data(mine)
        sequence = Tensor(x.asnumpy()[None])
        if cell_cls is nn.LSTMCell:
            hidden, state = cell(x, (h, h))
            _, (layer_hidden, layer_cell) = layer(sequence, (Tensor(h.asnumpy()[None]), Tensor(h.asnumpy()[None])))
            np.testing.assert_allclose(state.asnumpy(), layer_cell.asnumpy()[0], rtol=1e-6, atol=1e-6)
        else:
            hidden = cell(x, h)
            _, layer_hidden = layer(sequence, Tensor(h.asnumpy()[None]))
        np.testing.assert_allclose(hidden.asnumpy(), layer_hidden.asnumpy()[0], rtol=1e-6, atol=1e-6)
    relu = nn.RNNCell(3, 4, nonlinearity="relu")
    assert np.all(relu(x).asnumpy() >= 0)


def test_errors():
    with pytest.raises(ValueError, match="input_size=3"):
        nn.LSTM(3, 4)(Tensor(np.ones((5, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(3, 4, nonlinearity="gelu")
    with pytest.raises(ValueError, match="dropout"):
        nn.GRU(3, 4, dropout=1.5)


def test_gradients_match_finite_differences():
    layer = nn.LSTM(2, 3, bidirectional=True, dtype=mstype.float64)

    class FirstOutput(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def construct(self, x):
            return self.layer(x)[0]

    x = np.random.default_rng(8).standard_normal((4, 2, 2))
    check_gradient(FirstOutput(), x, [layer.w_ih_list[0], layer.w_hh_list[1], layer.b_hh_list[0]])


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU], ids=lambda c: c.__name__)
def test_unmasked_loop_equals_masked_loop_with_full_lengths(cls):
    """Without seq_length the time loop runs unmasked; values and gradients equal the masked loop's."""
    import jax
    import jax.numpy as jnp

    from sporax.nn.layer.rnn import _recurrent

    layer = cls(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    weights = layer._weights()
    mode = layer.mode
    rng = np.random.default_rng(3)
    x = jnp.asarray(rng.standard_normal((2, 5, 3)), jnp.float32)
    hidden = jnp.asarray(rng.standard_normal((4, 2, 4)), jnp.float32)
    cell = jnp.asarray(rng.standard_normal((4, 2, 4)), jnp.float32) if mode == "LSTM" else None
    full = jnp.full((2,), 5, jnp.int32)

    def loss(weights, x, lengths):
        output, hidden_n, cell_n = _recurrent(mode, 2, True, 0.0, True, x, hidden, cell, lengths, weights, None)
        return (output ** 2).sum() + (hidden_n * 1.5).sum() + (0 if cell_n is None else (cell_n ** 3).sum())

    # compiled, both loops in one program (op by op, eager JAX compiles each operation of the two loops' gradients
    # on its own); the lengths are an argument, not a constant XLA could fold the mask away with
    def both(weights, x, lengths):
        return (jax.value_and_grad(lambda weights, x: loss(weights, x, None), argnums=(0, 1))(weights, x),
                jax.value_and_grad(loss, argnums=(0, 1))(weights, x, lengths))

    unmasked, masked = jax.jit(both)(weights, x, full)
    for got, expected in zip(jax.tree_util.tree_leaves(unmasked), jax.tree_util.tree_leaves(masked)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-6)


# MindSpore 2.10 (CPU, both modes): the last step's output of each layer on a float16 input, float32 weights
# set to linspace(-0.5, 0.5) * (index + 1) / 2 in parameter order; outputs and states come back float16.
FLOAT16_LAST_STEP = {
    "LSTM": [[0.0273, 0.1144, 0.251], [0.0173, 0.085, 0.2158]],
    "GRU": [[0.3469, 0.502, 0.6133], [0.6562, 0.7993, 0.7969]],
    "RNN": [[-0.9131, 0.2369, 0.9658], [-0.9785, 0.2512, 0.9922]],
}


@pytest.mark.parametrize("name", sorted(FLOAT16_LAST_STEP))
def test_float16_input_runs_in_float16_as_mindspore(name):
    net = getattr(nn, name)(4, 3, 1, batch_first=True)
    for index, parameter in enumerate(net.get_parameters()):
        values = np.linspace(-0.5, 0.5, parameter.size).reshape(parameter.shape) * (index + 1) / 2
        parameter.set_data(Tensor(values.astype(np.float32)))
    x = Tensor(np.linspace(-1, 1, 40).reshape(2, 5, 4).astype(np.float16))
    output, state = net(x)
    state = state[0] if isinstance(state, tuple) else state
    assert output.dtype == state.dtype == mstype.float16
    np.testing.assert_allclose(output.asnumpy()[:, -1].astype(np.float64), FLOAT16_LAST_STEP[name], atol=1e-3)

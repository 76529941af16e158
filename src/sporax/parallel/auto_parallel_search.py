"""AutoParallel's ``recursive_programming`` search: a layout for each weight (or group of weights) from a cost model.

Contract:
    * The units searched: each attention block (a Cell with an int ``num_heads`` and four Dense
      children: query, key, value and the output projection, by name ``query``/``key``/``value``/
      ``q``/``k``/``v``/``q_proj``... and ``out``/``o``/``out_proj``/``proj``/``dense``/``output``,
      or else in definition order), each ``nn.MultiheadAttention`` (its packed ``in_proj_weight``
      included: ``multihead_attention_unit``), and every other trainable weight of two or more dimensions
      (Dense/MatMul weights, embedding tables, convolution kernels) that no strategy names.
    * Each unit is either replicated (data parallel: its gradient is all-reduced each step) or split
      over the devices: an attention block by heads (Megatron's layout: the query, key and value
      projections split by output columns, with their biases; the output projection by input rows;
      one all-reduce of the block's output forward and one of its input's gradient backward),
      another weight along its first dimension (a Dense's output features, a convolution's output
      channels, an embedding's rows: the layer's output is gathered forward and backward).
    * The cost model counts the bytes each choice moves per step (a ring all-reduce or all-gather
      of ``n`` bytes over ``d`` devices moves ``2 (d - 1) / d * n``) and the bytes a unit keeps per
      device (weight, gradient and two optimizer slots): each unit takes its cheaper communication;
      then, while the weights do not fit ``device_memory_capacity``, the largest replicated unit is
      split. The size of a layer's output is estimated from the network's first input: its rows
      (every dimension but the last: batch, or batch x sequence) times the layer's output features,
      and for a convolution the batch times its output channels times the input's spatial size
      (an upper bound: strides and pooling are not followed).
    * A split needs the device count to divide the first dimension (the number of heads for an
      attention block); otherwise the unit stays replicated.

Example:
    >>> from sporax.parallel.auto_parallel_search import plan_weights
    >>> plan_weights({"w": (256, 16)}, batch=8, devices=4, capacity=1e9)
    {'w': True}
"""
import collections

import numpy as np

STATE_COPIES = 4  # a trainable weight, its gradient and two optimizer slots (Momentum/Adam) per device
_QUERY_KEY_VALUE = (("query", "q", "q_proj", "wq", "query_proj"), ("key", "k", "k_proj", "wk", "key_proj"),
                    ("value", "v", "v_proj", "wv", "value_proj"))
_OUTPUT = ("out", "o", "out_proj", "o_proj", "proj", "dense", "output", "wo", "output_proj")

# name: the unit's name; layouts: [(Parameter or name, dims)] where dims[i] is True for the dimension split over
# the devices; size: bytes of its weights; replicated/split: bytes moved per step by each choice.
# heads_of: a MultiheadAttention whose heads the program splits when the unit is split (None for other units).
Unit = collections.namedtuple("Unit", ["name", "layouts", "size", "replicated", "split", "splittable", "heads_of"],
                              defaults=(None,))


def _ring(devices):
    return 2 * (devices - 1) / devices


def plan_units(units, devices, capacity):
    """``{unit name: split}``: each unit's cheaper communication, then splits (largest first) until memory fits."""
    choices = {unit.name: unit.splittable and unit.split < unit.replicated for unit in units}

    def memory():
        return sum(STATE_COPIES * unit.size / (devices if choices[unit.name] else 1) for unit in units)

    for unit in sorted(units, key=lambda unit: -unit.size):
        if memory() <= capacity:
            break
        if unit.splittable:
            choices[unit.name] = True
    if memory() > capacity:
        raise RuntimeError(f"AutoParallel: the weights need {memory():.0f} bytes per device even split over "
                           f"{devices} devices, more than device_memory_capacity={capacity:.0f}; use more devices "
                           "or raise it with set_cost_model_context(device_memory_capacity=...).")
    return choices


def weight_unit(name, shape, output_elements, devices, itemsize=4, param=None):
    """A weight split along its first dimension (or replicated); ``output_elements``: its layer's output size."""
    size = int(np.prod(shape)) * itemsize
    dims = (True,) + (False,) * (len(shape) - 1)
    return Unit(name, [(param if param is not None else name, dims)], size, _ring(devices) * size,
                _ring(devices) * output_elements * itemsize, shape[0] % devices == 0)


def plan_weights(shapes, batch, devices, capacity, itemsize=4):
    """The search over lone weights: ``{name: split}`` (True: first dimension over the devices; False: replicated).

    ``shapes``: ``{name: shape}`` of the weights to place; ``batch``: the rows of a step's input.
    """
    units = [weight_unit(name, shape, batch * shape[0], devices, itemsize) for name, shape in shapes.items()]
    return plan_units(units, devices, capacity)


def _dense_children(cell):
    from sporax.nn.layer.basic import Dense

    return {name: child for name, child in cell.name_cells().items() if isinstance(child, Dense)}


def attention_blocks(network):
    """``[(name, cell, (query, key, value, output) Dense Cells)]`` for the attention blocks of ``network``."""
    found = []
    for name, cell in network.cells_and_names():
        heads = getattr(cell, "num_heads", None)
        dense = _dense_children(cell)
        if isinstance(heads, bool) or not isinstance(heads, int) or len(dense) != 4:
            continue
        picked = [next((dense[alias] for alias in aliases if alias in dense), None) for aliases in _QUERY_KEY_VALUE]
        output = next((dense[alias] for alias in _OUTPUT if alias in dense), None)
        if None in picked or output is None:
            picked, output = list(dense.values())[:3], list(dense.values())[3]  # in definition order
        found.append((name, cell, (*picked, output)))
    return found


def attention_unit(name, block, rows, devices, itemsize=4):
    """The unit of one attention block: replicated, or split by heads (see the module doc)."""
    cell, (query, key, value, output) = block
    layouts, size = [], 0
    for projection in (query, key, value):
        layouts.append((projection.weight, (True, False)))
        if projection.bias is not None:
            layouts.append((projection.bias, (True,)))
    layouts.append((output.weight, (False, True)))  # the output projection's bias stays whole
    for param, _ in layouts:
        size += int(np.prod(param.shape)) * itemsize
    splittable = cell.num_heads % devices == 0 and all(
        dense.out_channels % devices == 0 for dense in (query, key, value))
    # One all-reduce of the block's output forward, one of its input's gradient backward.
    moved = 2 * _ring(devices) * rows * output.out_channels * itemsize
    return Unit(name, layouts, size, _ring(devices) * size, moved, splittable)


def multihead_attentions(network):
    """``[(name, cell)]`` for the ``nn.MultiheadAttention`` Cells of ``network``."""
    from sporax.nn.layer.transformer import MultiheadAttention

    return [(name, cell) for name, cell in network.cells_and_names() if isinstance(cell, MultiheadAttention)]


def multihead_attention_unit(name, cell, rows, devices, itemsize=4):
    """The unit of one ``nn.MultiheadAttention``: replicated, or split by heads.

    Split: separate ``q/k/v_proj_weight`` by rows (output features, head-major); the output projection by
    input columns (one all-reduce of the output forward, one of the input's gradient backward). The packed
    ``in_proj_weight`` (3E, E) cannot be laid out so that each device holds its heads' rows of all three
    thirds (no split of one dimension is), so it rests split by input columns and the program moves it to a
    head split of its (3, E, E) view each step (an all-to-all forward, one of its gradient backward).
    """
    if cell._qkv_same_embed_dim:
        layouts = [(cell.in_proj_weight, (False, True))]
        moved_weight = int(np.prod(cell.in_proj_weight.shape)) * itemsize
    else:
        layouts = [(weight, (True, False)) for weight in (cell.q_proj_weight, cell.k_proj_weight, cell.v_proj_weight)]
        moved_weight = 0
    layouts.append((cell.out_proj.weight, (False, True)))
    size = sum(int(np.prod(param.shape)) * itemsize for param, _ in layouts)
    all_to_all = 2 * (devices - 1) / devices ** 2 * moved_weight
    moved = 2 * _ring(devices) * rows * cell.embed_dim * itemsize + all_to_all
    return Unit(name, layouts, size, _ring(devices) * size, moved, cell.num_heads % devices == 0, heads_of=cell)


def output_elements(owner, shape, inputs):
    """The estimated size of the output of the layer ``owner`` whose weight has ``shape`` (see the module doc)."""
    first = next((tuple(value.shape) for value in inputs if hasattr(value, "shape") and len(value.shape)), (1,))
    if len(shape) >= 3:  # a convolution kernel (out channels, in channels, *window)
        return first[0] * shape[0] * int(np.prod(first[2:] or (1,)))
    rows = int(np.prod(first[:-1])) if len(first) >= 2 else first[0]
    return rows * shape[0]


def owners(network):
    """``{id(Parameter): the Cell that holds it as its own attribute}``."""
    found = {}
    for _, cell in network.cells_and_names():
        for param in cell.__dict__["_params"].values():
            if param is not None:
                found.setdefault(id(param), cell)
    return found

"""Loss landscapes: ``SummaryCollector(collect_landscape=...)`` keeps the weights, ``SummaryLandscape`` draws them.

Collecting: at every unit (step or epoch) listed in the ``intervals``, the backbone's parameters go
to ``<summary_dir>/ckpt_dir/<Backbone>_<n>_<unit>.ckpt``; at the end of training
``train_metadata.json`` there records the intervals, the files and the settings (MindSpore's layout).

Drawing (Li et al., "Visualizing the Loss Landscape of Neural Nets"), for each interval
(``create_landscape["train"]``): the trajectory of weight vectors minus the last one is reduced to
its two principal directions, each rescaled per parameter to the norm of that parameter
(filter normalisation); the trajectory's coordinates in that plane (least squares) bound a
``landscape_size`` x ``landscape_size`` grid (20% margin) on which the loss is evaluated, as it is
along the trajectory (the loss path). For the final weights (``create_landscape["result"]``) two
random normalised directions span ``[-1, 1]`` x ``[-1, 1]``. The loss at a point is the mean of the
loss network's outputs over ``num_samples`` samples of the callback's dataset. Each landscape is
written to a summary file as MindSpore's ``LossLandscape`` message (tag ``landscape_<interval>``).
Only weights and biases move (names with "weight"/"bias", not optimizer "moment"s).
"""
import json
import os
import shutil
import time

import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.io.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
from sporax.io.wire import encode_varint, length_delimited
from sporax.train.summary import event_file
from sporax.train.summary.event_file import varint_field
from sporax.train.summary.record import SummaryRecord

_DEFAULTS = {"landscape_size": 40, "unit": "step", "num_samples": 2048,
             "create_landscape": {"train": True, "result": True}, "intervals": [[1, 2, 3, 4, 5]]}
_MARGIN = 0.2
_METADATA = "train_metadata.json"


def check_collect_landscape(config, owner):
    """Check a ``collect_landscape`` dict as MindSpore does; return it with defaults filled in."""
    if not isinstance(config, dict):
        raise TypeError(f'For "{owner}", the "collect_landscape" should be dict, but got {type(config).__name__}.')
    unexpected = set(config) - set(_DEFAULTS)
    if unexpected:
        raise ValueError(f'For "{owner}", the keys {unexpected} of `collect_landscape` are unsupported, expect the '
                         f"follow keys: {list(_DEFAULTS)}")
    merged = {**_DEFAULTS, **config}
    size = merged["landscape_size"]
    if isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= 256:
        raise ValueError(f'For "{owner}", the "landscape_size" should be an int between 3 and 256, but got: {size}')
    if merged["unit"] not in ("step", "epoch"):
        raise ValueError(f'For "{owner}", the "unit" should be step or epoch, but got the: {merged["unit"]}')
    samples = merged["num_samples"]
    if isinstance(samples, bool) or not isinstance(samples, int) or samples <= 0:
        raise ValueError(f'For "{owner}", the "num_samples" should be a positive int, but got: {samples}')
    create = merged["create_landscape"]
    if not isinstance(create, dict) or set(create) - {"train", "result"} or \
            not all(isinstance(value, bool) for value in create.values()):
        raise ValueError(f'For "{owner}", the "create_landscape" should be a dict of "train"/"result" to bool, '
                         f"but got: {create}")
    merged["create_landscape"] = {"train": create.get("train", True), "result": create.get("result", True)}
    intervals = merged["intervals"]
    if not isinstance(intervals, list) or not intervals or not all(
            isinstance(interval, list) and len(interval) >= 3 and all(isinstance(n, int) for n in interval)
            for interval in intervals):
        raise ValueError(f'For "{owner}", the "intervals" should be a list of lists of at least three ints, but got: '
                         f"{intervals}")
    return merged


def _backbone(network):
    """The network inside the train wrappers (``TrainOneStepCell`` -> ``WithLossCell`` -> backbone)."""
    for attribute in ("network", "_network", "_backbone"):
        while True:
            inner = getattr(network, attribute, None)
            if inner is None or not hasattr(inner, "parameters_and_names"):
                break
            network = inner
    return network


class LandscapeCollection:
    """What ``SummaryCollector`` does for ``collect_landscape``: keep the weights, then the metadata."""

    def __init__(self, summary_dir, config):
        self.config = check_collect_landscape(config, "SummaryCollector")
        self.ckpt_dir = os.path.join(summary_dir, "ckpt_dir")
        os.makedirs(self.ckpt_dir, mode=0o700, exist_ok=True)
        self.files = {}
        self.epoch_group = {str(index): list(interval) for index, interval in enumerate(self.config["intervals"])}
        self.wanted = {number for interval in self.config["intervals"] for number in interval}

    def unit_end(self, params, unit):
        """Save the backbone's weights if this step/epoch is in an interval."""
        if unit != self.config["unit"]:
            return
        number = params.get("cur_epoch_num" if unit == "epoch" else "cur_step_num")
        if number not in self.wanted:
            return
        backbone = _backbone(params.get("train_network") or params.get("network"))
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{number}_{unit}.ckpt")
        save_checkpoint(backbone, path)
        self.files[str(number)] = path

    def train_end(self, params):
        """Write ``train_metadata.json``."""
        data = {"epoch_group": self.epoch_group, "model_params_file_map": self.files,
                "step_per_epoch": params.get("batch_num", 1), "unit": self.config["unit"],
                "num_samples": self.config["num_samples"], "landscape_size": self.config["landscape_size"],
                "create_landscape": self.config["create_landscape"]}
        path = os.path.join(self.ckpt_dir, _METADATA)
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(data, handle)


# --- LossLandscape message (MindSpore's summary.proto) ---------------------------------------
_FLOAT64 = 12  # anf_ir.proto DataType.DT_FLOAT64


def _tensor(array):
    array = np.asarray(array, dtype=np.float64)
    dims = b"".join(varint_field(1, size) for size in array.shape)
    return dims + varint_field(2, _FLOAT64) + length_delimited(3, array.reshape(-1).astype("<f4").tobytes())


def _point(x, y, z):
    return length_delimited(1, _tensor(x)) + length_delimited(2, _tensor(y)) + length_delimited(3, _tensor(z))


def encode_landscape(landscape):
    """``landscape`` (dict from :class:`SummaryLandscape`) as a serialised ``LossLandscape``."""
    message = length_delimited(1, _point(*landscape["landscape"]))
    if landscape.get("path") is not None:
        intervals = b"".join(encode_varint(number) for number in landscape["intervals"])
        path = length_delimited(1, intervals) + length_delimited(2, _point(*landscape["path"]))
        message += length_delimited(2, path)
    metadata = (length_delimited(1, landscape["decomposition"].encode())
                + length_delimited(2, landscape["unit"].encode()) + varint_field(3, landscape["step_per_epoch"]))
    message += length_delimited(3, metadata)
    if landscape.get("convergence") is not None:
        message += length_delimited(4, _point(*landscape["convergence"]))
    return message


def _moves(name):
    return ("weight" in name or "bias" in name) and "moment" not in name


class SummaryLandscape:
    """Draw the loss landscapes of a training whose ``SummaryCollector`` collected them.

    Args:
        summary_dir (str): the ``SummaryCollector``'s summary folder (with ``ckpt_dir``).

    Example:
        >>> import sporax as ms
        >>> landscape = ms.SummaryLandscape("./summary")  # doctest: +SKIP
        >>> landscape.gen_landscapes_with_multi_process(callback_fn)  # doctest: +SKIP
    """

    def __init__(self, summary_dir):
        if not isinstance(summary_dir, str):
            raise TypeError(f"For 'SummaryLandscape', the 'summary_dir' must be str, but got {type(summary_dir)}.")
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        os.makedirs(self._ckpt_dir, mode=0o700, exist_ok=True)

    def clean_ckpt(self):
        """Remove the weights kept for the landscapes (``<summary_dir>/ckpt_dir``)."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def _metadata(self, collect_landscape):
        path = os.path.join(self._ckpt_dir, _METADATA)
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "SummaryLandscape", {_METADATA} file does not exist under {self._ckpt_dir}, '
                                    "please use summary_collector to collect information to create the json file")
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if collect_landscape is not None:
            settings = check_collect_landscape(collect_landscape, "SummaryLandscape")
            for key in ("landscape_size", "num_samples", "create_landscape", "unit"):
                if key in collect_landscape:
                    data[key] = settings[key]
            if "intervals" in collect_landscape:
                data["epoch_group"] = {str(index): list(interval)
                                       for index, interval in enumerate(settings["intervals"])}
        return data

    def gen_landscapes_with_multi_process(self, callback_fn, collect_landscape=None, device_ids=None, output=None):
        """Compute the landscapes and write them to a summary file in ``output`` (default: the summary folder).

        Args:
            callback_fn (Callable): returns ``(model, network, dataset, metrics)``: a ``Model`` whose
                train network outputs the loss (built without an optimizer), its network, the
                dataset to evaluate on and the metrics.
            collect_landscape (dict): overrides of the collected settings (``landscape_size``,
                ``create_landscape``, ``num_samples``, ``intervals``). Default: ``None``.
            device_ids (list[int]): MindSpore's worker devices; sporax computes in this process. Default: ``None``.
            output (str): the folder of the summary file. Default: ``None``.

        Returns:
            list[dict], the landscapes written (``intervals``, ``decomposition``, ``landscape``: (x, y, z) grids ...).
        """
        if not callable(callback_fn):
            raise TypeError(f"For 'SummaryLandscape', 'callback_fn' must be callable, but got {type(callback_fn)}.")
        if device_ids is not None and (not isinstance(device_ids, list) or
                                       not all(isinstance(i, int) and i >= 0 for i in device_ids)):
            raise ValueError(f"For 'SummaryLandscape', 'device_ids' must be a list of non-negative ints, "
                             f"but got {device_ids!r}.")
        data = self._metadata(collect_landscape)
        model, network, dataset, _ = callback_fn()
        batch_size = dataset.get_batch_size()
        batches = list(dataset.take(max(1, data["num_samples"] // batch_size)).create_tuple_iterator())
        evaluate = _Evaluator(model, network, batches)
        files = data["model_params_file_map"]
        landscapes = []
        groups = list(data["epoch_group"].values())
        if data["create_landscape"]["train"]:
            for epochs in groups:
                trajectory = [load_checkpoint(files[str(number)]) for number in epochs]
                landscapes.append(_pca_landscape(trajectory, epochs, data["landscape_size"], evaluate))
        if data["create_landscape"]["result"]:
            final = [groups[-1][-1]]
            landscapes.append(_random_landscape(load_checkpoint(files[str(final[0])]), final, data["landscape_size"],
                                                evaluate))
        for landscape in landscapes:
            landscape["unit"], landscape["step_per_epoch"] = data["unit"], data["step_per_epoch"]
        self._write(landscapes, os.path.realpath(output) if output is not None else self._summary_dir)
        return landscapes

    @staticmethod
    def _write(landscapes, folder):
        with SummaryRecord(folder) as record:
            for landscape in landscapes:
                epochs = landscape["intervals"]
                span = epochs if len(epochs) == 1 else [epochs[0], epochs[-1]]  # MindSpore's tag
                value = length_delimited(1, f"landscape_{span}".encode()) + \
                    length_delimited(10, encode_landscape(landscape))
                record._write(event_file.summary_event(time.time(), 0, [value]))
            record.flush()


class _Evaluator:
    """The mean loss of the network over the kept batches, for given parameter values."""

    def __init__(self, model, network, batches):
        self.loss_network = model.train_network
        self.network = network
        self.batches = batches

    def __call__(self, values):
        load_param_into_net(self.network, {name: Parameter(Tensor(value.astype(np.float32)), name=name)
                                           for name, value in values.items()})
        self.loss_network.set_train(True)
        losses = [float(np.mean(self.loss_network(*batch).asnumpy())) for batch in self.batches]
        return float(np.mean(losses))


def _arrays(parameters):
    return {name: value.asnumpy() for name, value in parameters.items() if not isinstance(value, str)}


def _normalised(directions, final):
    """Each parameter's direction scaled to that parameter's norm; zero for what does not move."""
    result = {}
    for name, value in final.items():
        direction = directions[name]
        norm = np.linalg.norm(direction)
        result[name] = direction * (np.linalg.norm(value) / norm) if _moves(name) and norm > 0 else \
            np.zeros_like(value, dtype=np.float64)
    return result


def _flat(arrays, names):
    return np.concatenate([np.asarray(arrays[name], np.float64).reshape(-1) for name in names])


def _unflat(vector, final, names):
    result, offset = {name: np.zeros_like(value, dtype=np.float64) for name, value in final.items()}, 0
    for name in names:
        size = final[name].size
        result[name] = vector[offset:offset + size].reshape(final[name].shape)
        offset += size
    return result


def _grid(evaluate, final, first, second, xs, ys):
    x_points, y_points = np.meshgrid(xs, ys)
    z_points = np.empty_like(x_points)
    for row in range(x_points.shape[0]):
        for column in range(x_points.shape[1]):
            alpha, beta = x_points[row, column], y_points[row, column]
            z_points[row, column] = evaluate({name: value + alpha * first[name] + beta * second[name]
                                              for name, value in final.items()})
    return x_points, y_points, z_points


def _pca_landscape(trajectory, epochs, size, evaluate):
    arrays = [_arrays(parameters) for parameters in trajectory]
    final = arrays[-1]
    names = [name for name in final if _moves(name)]
    matrix = np.stack([_flat(values, names) for values in arrays[:-1]]) - _flat(final, names)
    # The principal directions of the trajectory (each point's deltas centred over the parameters).
    _, _, components = np.linalg.svd(matrix - matrix.mean(axis=1, keepdims=True), full_matrices=False)
    first = _normalised(_unflat(components[0], final, names), final)
    second = _normalised(_unflat(components[1] if len(components) > 1 else components[0], final, names), final)
    basis = np.stack([_flat(first, names), _flat(second, names)], axis=1)
    coefficients = np.array([np.linalg.lstsq(basis, _flat(values, names) - _flat(final, names), rcond=None)[0]
                             for values in arrays])
    axes = []
    for column in range(2):
        low, high = coefficients[:, column].min(), coefficients[:, column].max()
        axes.append(np.linspace(low - _MARGIN * (high - low), high + _MARGIN * (high - low), size))
    x_points, y_points, z_points = _grid(evaluate, final, first, second, *axes)
    path_losses = np.array([evaluate(values) for values in arrays])
    return {"intervals": list(epochs), "decomposition": "PCA", "landscape": (x_points[0], y_points[:, 0], z_points),
            "path": (coefficients[:, 0], coefficients[:, 1], path_losses),
            "convergence": (np.array([0.0]), np.array([0.0]), path_losses[-1:])}


def _random_landscape(parameters, epochs, size, evaluate):
    final = _arrays(parameters)
    rng = np.random.default_rng()
    first = _normalised({name: rng.normal(size=value.shape) for name, value in final.items()}, final)
    second = _normalised({name: rng.normal(size=value.shape) for name, value in final.items()}, final)
    axis = np.linspace(-_MARGIN * 5, _MARGIN * 5, size)
    x_points, y_points, z_points = _grid(evaluate, final, first, second, axis, axis)
    middle = size // 2
    return {"intervals": list(epochs), "decomposition": "Random", "landscape": (x_points[0], y_points[:, 0], z_points),
            "path": None, "convergence": (axis[middle:middle + 1], axis[middle:middle + 1],
                                          z_points[middle:middle + 1, middle])}

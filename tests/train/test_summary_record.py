"""SummaryRecord and the summary operators write MindSpore's summary event file: compared event by
event (wall times aside) with a file MindSpore 2.10 wrote (tests/fixtures/train/record_summary.py)."""
import glob
import importlib.util
import io
import os
import stat

import numpy as np
import pytest
from PIL import Image

import sporax as ms
from sporax.io import wire
from sporax.train.summary import event_file

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "train")


def _load_recorder():
    spec = importlib.util.spec_from_file_location("record_summary", os.path.join(FIXTURES, "record_summary.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fields(data, start=0, end=None):
    return list(wire.iterate_fields(data, start, end))


def _normalise(payload):
    """An event as comparable data: wall time dropped, PNG images decoded to pixels."""
    result = []
    for number, wire_type, value, _ in _fields(payload):
        if number == 1:
            continue
        if number != 5:
            result.append((number, value if wire_type == 0 else payload[value[0]:value[1]]))
            continue
        for _, _, (start, end), _ in _fields(payload, *value):
            entry = []
            for field, kind, span, _ in _fields(payload, start, end):
                raw = payload[span[0]:span[1]] if kind != 0 else span
                if field == 4:  # Image: decode the PNG
                    image = {}
                    for inner, inner_kind, inner_span, _ in _fields(payload, *span):
                        if inner == 4:
                            png = payload[inner_span[0]:inner_span[1]]
                            image[inner] = np.asarray(Image.open(io.BytesIO(png))).tolist()
                        else:
                            image[inner] = inner_span
                    raw = image
                entry.append((field, raw))
            result.append(("value", entry))
    return result


def _events(path):
    with open(path, "rb") as handle:
        return [_normalise(payload) for payload in event_file.read_records(handle.read())]


def test_file_matches_mindspore(tmp_path):
    log_path = _load_recorder().write_summary(ms, str(tmp_path))
    (written,) = glob.glob(str(tmp_path / "*"))
    assert written == log_path
    name = os.path.basename(written)
    assert name.startswith("ev.out.events.summary.") and name.endswith("_X")
    assert not os.stat(written).st_mode & (stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)  # read-only, as MindSpore
    expected = _events(os.path.join(FIXTURES, "summary_mindspore.events"))
    got = _events(written)
    assert len(got) == len(expected)
    for index, (event, want) in enumerate(zip(got, expected)):
        assert event == want, f"event {index} differs"


def test_summary_operators_inside_jit_record_run_time_values(tmp_path):
    scalar = ms.ops.ScalarSummary()

    @ms.jit
    def step(x):
        scalar("mean", x.mean())
        return x * 2

    with ms.SummaryRecord(str(tmp_path)) as record:
        for value in (1.0, 3.0):
            step(ms.Tensor(np.full((4,), value, np.float32)))
            record.record(int(value))
        path = record.log_dir
    with open(path, "rb") as handle:
        payloads = event_file.read_records(handle.read())
    scalars = []
    for payload in payloads[1:]:
        (summary,) = [span for number, _, span, _ in _fields(payload) if number == 5]
        for _, _, value_span, _ in _fields(payload, *summary):
            for number, _, span, _ in _fields(payload, *value_span):
                if number == 3:
                    scalars.append(np.frombuffer(payload[span[0]:span[1]], np.float32)[0])
    assert scalars == [1.0, 3.0]


def test_errors_and_single_instance(tmp_path):
    record = ms.SummaryRecord(str(tmp_path))
    try:
        with pytest.raises(RuntimeError, match="only one instance"):
            ms.SummaryRecord(str(tmp_path))
        with pytest.raises(ValueError, match="plugin"):
            record.add_value("audio", "x", ms.Tensor([1.0]))
        with pytest.raises(TypeError, match="Tensor"):
            record.add_value("scalar", "x", 1.0)
        with pytest.raises(ValueError, match="one element"):
            record.add_value("scalar", "x", ms.Tensor([1.0, 2.0]))
        with pytest.raises(TypeError, match="step"):
            record.record("1")
        with pytest.raises(TypeError, match="name"):
            ms.ops.ScalarSummary()(3, ms.Tensor(1.0))
    finally:
        record.close()
    assert record.record(1) is False
    with pytest.raises(ValueError, match="closed"):
        record.__enter__()
    ms.SummaryRecord(str(tmp_path / "again")).close()


def test_checksums_are_verified():
    record = event_file.frame(b"abc")
    assert event_file.read_records(record) == [b"abc"]
    assert event_file.crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value
    damaged = record[:-1] + bytes([record[-1] ^ 1])
    with pytest.raises(ValueError, match="checksum"):
        event_file.read_records(damaged)


class _SummarisedDense(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = ms.nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        self.tensor_summary = ms.ops.TensorSummary()
        self.scalar_summary = ms.ops.ScalarSummary()

    def construct(self, x):
        y = self.dense(x)
        self.tensor_summary("dense_out", y)
        self.scalar_summary("total", y.sum())
        return ms.ops.relu(y)


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_graph_summary_cache_differs_between_pynative_and_graph(mode):
    """MindSpore 2.10 fills ``summary_record._get_summary_tensor_data``'s cache only from GRAPH_MODE graphs:
    in PyNative (``ms.jit`` there too) it stays ``{}``; in GRAPH it holds ``tag[:Tensor]``/``tag[:Scalar]``
    Tensors, the latest call's values, and reading it empties it (mindarmour's coverage metrics use it)."""
    from sporax.train.summary.record import _get_summary_tensor_data
    ms.set_context(mode=ms.GRAPH_MODE if mode == "GRAPH" else ms.PYNATIVE_MODE)
    try:
        net = _SummarisedDense()
        assert _get_summary_tensor_data() == {}
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        net(ms.Tensor(x))
        net(ms.Tensor(x + 1))
        data = _get_summary_tensor_data()
        if mode == "PYNATIVE":
            assert data == {}
            return
        assert list(data) == ["dense_out[:Tensor]", "total[:Scalar]"]
        expected = (x + 1) @ np.ones((3, 2), np.float32)
        np.testing.assert_allclose(data["dense_out[:Tensor]"].asnumpy(), expected)
        assert data["total[:Scalar]"].dtype == ms.float32 and float(data["total[:Scalar]"].asnumpy()) == expected.sum()
        assert _get_summary_tensor_data() == {}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)

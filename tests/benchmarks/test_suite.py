"""The benchmark suite's own logic: the machine line, the standalone flag, the FLOP count, the
peak product's arithmetic. No timing here: the figures themselves are the suite's job."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import machine  # noqa: E402
import peak  # noqa: E402
import suite  # noqa: E402
import suite_models  # noqa: E402


def test_standalone_flag_names_the_factor_and_direction():
    assert suite.standalone_flag(100.0, 150.0) == ""  # within 2x: no flag
    assert suite.standalone_flag(100.0, 50.0) == ""  # exactly 2x is still within the limit
    slower = suite.standalone_flag(23.4, 80.6)
    assert slower.startswith("MOVED 3.4x") and "slower beside the other workers" in slower
    faster = suite.standalone_flag(881.0, 250.0)
    assert faster.startswith("MOVED 3.5x") and "faster beside the other workers" in faster
    assert suite.standalone_flag(100.0, None) == ""  # no standalone figure: nothing to compare


def test_machine_line_names_cpu_cores_and_load(tmp_path, monkeypatch):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                       "model name\t: AMD EPYC\nflags\t\t: fpu sse4_2 avx avx2 avx512f\n\n"
                       "processor\t: 1\nmodel name\t: other\n")
    assert machine._cpu_model(str(cpuinfo)) == "AMD EPYC (family 26, model 2)"
    assert machine._vector_extensions(str(cpuinfo)) == "avx512f"
    facts = {"cpu": "AMD EPYC (family 26, model 2)", "vector": "avx512f", "logical_cpus": 2, "usable_cpus": 2,
             "load": (1.25, 1.5, 1.75)}
    assert machine.line(facts, "start") == ("# machine: AMD EPYC (family 26, model 2) [avx512f], 2 usable of 2 "
                                            "CPUs; load average 1.2 / 1.5 / 1.8 (1/5/15 min) at start")
    assert not machine.busy(facts)
    assert machine.busy({**facts, "load": (13.0, 12.0, 12.0)})
    assert not machine.busy({**facts, "load": (2.5, 2.0, 1.0)}, share=1.5)  # the suite's own load at its end
    described = machine.describe()
    assert described["usable_cpus"] >= 1 and len(described["load"]) == 3


def test_train_step_flops_is_three_forwards_of_lenet5():
    # The step's FLOPs by XLA's cost analysis against a count by hand: forward + backward is ~3x
    # the forward (the first convolution needs no input gradient, so a little under 3x).
    counted = suite_models.train_step_flops("lenet5", 8)
    by_hand = 3 * suite_models.lenet5_forward_flops(8)
    assert 0.85 * by_hand < counted < 1.05 * by_hand


def test_peak_rates_count_two_flops_per_multiply_add():
    calls = []
    wall, per_cpu = peak._best_rate(lambda: calls.append(np.ones(4) @ np.ones(4)), 2.0 * 64 ** 3, 0.0, least=3)
    assert len(calls) == 4  # one untimed call, then `least` timed ones
    assert wall > 0 and per_cpu > 0


def test_peak_numpy_product_reports_positive_rates():
    measured = peak.measure(size=64, seconds=0.0, libraries=("numpy",))
    assert isinstance(measured["numpy"], list) and all(rate > 0 for rate in measured["numpy"])


def test_peak_reports_a_library_it_cannot_load_by_reason(monkeypatch):
    def missing(size, seconds):
        raise OSError("libdnnl.so.3 not found")
    monkeypatch.setitem(peak.LIBRARIES, "onednn", missing)
    measured = peak.measure(size=64, seconds=0.0, libraries=("onednn",))
    assert measured["onednn"] == "OSError: libdnnl.so.3 not found"


@pytest.mark.parametrize("reply, expected", [("0.5 1.0", (200.0, 0.01)), ("0.25 0.3", (400.0, 0.003))])
def test_worker_round_keeps_the_best_rate_and_its_cpu_time(reply, expected):
    worker = suite.Worker.__new__(suite.Worker)
    worker.error, worker.best, worker.best_cpu, worker.rounds, worker.timeout = None, None, None, [], 1

    class Pipe:
        def write(self, text):
            pass

        def flush(self):
            pass
    worker.process = type("Process", (), {"stdin": Pipe()})()
    worker._reply = lambda silence: reply
    worker.time(100)
    assert worker.best == pytest.approx(expected[0]) and worker.best_cpu == pytest.approx(expected[1])
    assert worker.rounds == [tuple(float(value) for value in reply.split())]


def test_mindspore_onednn_capped_at_avx2_only_for_convolutions_on_avx512():
    env = {"PATH": "/bin"}
    capped = suite.contender_environment("mindspore-graph", "resnet18_b32", env, vector="avx512f")
    assert capped["ONEDNN_MAX_CPU_ISA"] == "AVX2" and "ONEDNN_MAX_CPU_ISA" not in env
    assert suite.contender_environment("mindspore-graph", "lstm_b32", env, vector="avx512f") is env
    assert suite.contender_environment("mindspore-graph", "lenet5_b32", env, vector="avx2") is env
    assert suite.contender_environment("sporax-graph", "lenet5_b32", env, vector="avx512f") is env
    assert suite.contender_environment("mindspore-graph", "lenet5_b32", env, "native", vector="avx512f") is env
    assert suite.contender_environment("mindspore-graph", "mlp_b32", env, "avx2", vector="avx2")[
        "ONEDNN_MAX_CPU_ISA"] == "AVX2"
    chosen = {**env, "ONEDNN_MAX_CPU_ISA": "AVX512_CORE"}  # the user's own cap stays
    assert suite.contender_environment("mindspore-graph", "lenet5_b32", chosen, vector="avx512f") is chosen

"""first_step_profile.py's timeline: each phase's line is the difference between two marks, the
garbage collector's passes are counted per generation. No timing of sporax here."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import first_step_profile  # noqa: E402


def test_phases_are_differences_between_marks_and_count_gc_passes(capsys):
    timeline = first_step_profile.Timeline()
    timeline.mark("start")
    sum(i * i for i in range(200_000))  # some CPU time in the main thread
    timeline.on_gc("start", {"generation": 2})
    timeline.on_gc("stop", {"generation": 2})
    timeline.on_gc("start", {"generation": 0})
    timeline.on_gc("stop", {"generation": 0})
    timeline.mark("worked")
    timeline.mark("idle")
    timeline.report()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["phase", "(ends", "at)"] and len(lines) == 3
    worked, idle = lines[1].split(), lines[2].split()
    assert worked[0] == "worked" and float(worked[2]) > 0 and float(worked[3]) > 0
    assert lines[1].endswith("[1, 0, 1]") and lines[2].endswith("[0, 0, 0]")
    assert idle[0] == "idle" and float(idle[2]) < float(worked[2])


def test_per_op_run_computes_the_compiled_step(monkeypatch):
    """``--per-op``: the program's jaxpr evaluated op by op gives the compiled program's loss and new weights."""
    import numpy as np
    import sporax as ms
    from sporax.state import program as program_module

    ms.set_context(mode=ms.GRAPH_MODE)
    data = np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32)
    target = np.random.default_rng(1).standard_normal((8, 2)).astype(np.float32)
    per_op_calls = []

    def per_op(program, arrays):
        per_op_calls.append(program)
        return first_step_profile.per_op_run(program, arrays)

    def step_once(op_by_op):
        ms.set_seed(0)
        network = ms.nn.Dense(3, 2)
        initial = network.weight.asnumpy()
        step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, ms.nn.MSELoss()),
                                      ms.nn.Momentum(network.trainable_params(), 0.1, 0.9))
        if op_by_op:
            monkeypatch.setattr(program_module.Program, "run", per_op)
        loss = step(ms.Tensor(data), ms.Tensor(target)).asnumpy()
        monkeypatch.undo()
        assert not np.array_equal(network.weight.asnumpy(), initial)  # the step updated the weights
        return loss, network.weight.asnumpy(), network.bias.asnumpy()

    compiled, op_by_op = step_once(False), step_once(True)
    assert len(per_op_calls) == 1
    for expected, actual in zip(compiled, op_by_op):
        np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-7)

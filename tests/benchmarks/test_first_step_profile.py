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

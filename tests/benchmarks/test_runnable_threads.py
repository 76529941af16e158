"""runnable_threads.py's replay of scheduler events: a thread is running from a switch to it, runnable from a
wakeup or a preemption (prev_state R), sleeping from a switch away in any other state; only the window counts."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import runnable_threads  # noqa: E402


def _switch(t, previous, state, following):
    return (t, "sched_switch", previous,
            f"prev_comm=x prev_pid={previous} prev_prio=120 prev_state={state} ==> next_comm=y next_pid={following} "
            "next_prio=120")


def test_replay_counts_threads_wanting_a_core_and_who_was_alone():
    # threads 11 and 12 are ours, 99 is another process's
    events = [_switch(0.0, 99, "R", 11),               # 11 runs, 12 never seen yet
              (1.0, "sched_wakeup", 11, "comm=x pid=12 prio=120 target_cpu=001"),  # 12 runnable
              _switch(2.0, 11, "R", 12),               # 11 preempted (runnable), 12 runs
              _switch(3.0, 12, "S", 11),               # 12 sleeps, 11 runs alone
              _switch(4.0, 11, "S", 99),               # both asleep
              _switch(5.0, 99, "R", 12)]
    wanting, per_thread = runnable_threads.replay(events, {11, 12}, 0.5, 5.0)
    assert dict(wanting) == {1: 0.5 + 1.0, 2: 2.0, 0: 1.0}
    assert per_thread[11]["alone"] == 1.5 and per_thread[12]["alone"] == 0
    assert per_thread[11]["running"] == 2.5 and per_thread[11]["runnable"] == 1.0  # from the window's start
    assert per_thread[12]["runnable"] == 1.0 and per_thread[12]["running"] == 1.0

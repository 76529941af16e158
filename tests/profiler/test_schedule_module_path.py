"""``mindspore.profiler.schedule`` as a module path (``from mindspore.profiler.schedule import ProfilerAction``)."""
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_profiler_action_from_the_schedule_module(hook):
    # MindSpore 2.10: ProfilerAction members NONE=0, WARM_UP=1, RECORD=2, RECORD_AND_SAVE=3
    from mindspore.profiler.schedule import ProfilerAction
    assert [(action.name, action.value) for action in ProfilerAction] == [
        ("NONE", 0), ("WARM_UP", 1), ("RECORD", 2), ("RECORD_AND_SAVE", 3)]

    import mindspore.profiler as profiler
    from sporax.profiler.schedule import schedule
    # MindSpore binds the schedule class over its same-named module: the attribute stays the class.
    assert profiler.schedule is schedule and profiler.ProfilerAction is ProfilerAction
    assert schedule(wait=0, active=1, warmup=0)(0) is ProfilerAction.RECORD_AND_SAVE

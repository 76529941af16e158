"""``schedule``: which steps a profiler skips, warms up on, and records (``ProfilerAction`` per step)."""
import enum


class ProfilerAction(enum.Enum):
    """What the profiler does during one step."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def _count(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"For 'schedule', {name} must be an int >= {minimum}, got {value!r}.")
    return value


class schedule:
    """A profiling schedule: ``skip_first`` steps, then cycles of ``wait``, ``warmup``, ``active`` steps.

    Calling it with a step number (from 0) gives that step's ``ProfilerAction``; the last active step
    of a cycle is ``RECORD_AND_SAVE`` (the trace is written and ``on_trace_ready`` runs). ``repeat``
    cycles are profiled (0: as many as the run has).

    Args:
        wait (int), active (int): steps per cycle not profiled / profiled (active >= 1).
        warmup (int): steps profiled but not reported, before the active ones. Default: 0.
        repeat (int): number of cycles, 0 for unlimited. Default: 0.
        skip_first (int): steps skipped before the first cycle. Default: 0.

    Example:
        >>> plan = schedule(wait=1, warmup=1, active=2, repeat=1)
        >>> [plan(step).name for step in range(5)]
        ['NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        self.wait = _count(wait, "wait", 0)
        self.active = _count(active, "active", 1)
        self.warmup = _count(warmup, "warmup", 0)
        self.repeat = _count(repeat, "repeat", 0)
        self.skip_first = _count(skip_first, "skip_first", 0)

    def __call__(self, step):
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat and step // cycle >= self.repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < self.wait:
            return ProfilerAction.NONE
        if position < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def to_dict(self):
        """The schedule's settings."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}

    def __repr__(self):
        return "schedule(" + ", ".join(f"{k}={v}" for k, v in self.to_dict().items()) + ")"


def _always_record(step):
    """The schedule of a profiler given none: every step is recorded until ``stop``."""
    return ProfilerAction.RECORD

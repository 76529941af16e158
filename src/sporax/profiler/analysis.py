"""The step summary: per-op and per-step time tables read back from the trace a profiler wrote.

JAX's profiler writes an XSpace (``<run>/<host>.xplane.pb``, the file TensorBoard's profile plugin
reads). ``jax.profiler.ProfileData`` parses it; every compiled op's execution is an event carrying an
``hlo_op`` stat (its HLO instruction) and ``hlo_module`` (its program), and the profiler's own step
annotations (``ProfilerStep`` events with a ``step_num`` stat) mark the recorded steps. Ops are
attributed to the step whose interval contains their start; warm-up steps are left out.

Written, per trace, in ``<output_path>/profiler_output/<run>/``:

- ``op_statistic.csv``: per op type (``convolution``, ``fusion`` ...): count, total/min/avg/max time
  (us) and share of the op time;
- ``kernel_details.csv``: per op (module, HLO instruction): count, total/avg time (us), share;
- ``step_trace_time.csv``: per recorded step: its wall time and the op time inside it (us);
- ``op_summary.txt``: the same, as readable text tables.
"""
import collections
import csv
import glob
import os
import re

from jax.profiler import ProfileData

STEP_EVENT = "ProfilerStep"
_SUFFIX = re.compile(r"[.:]\d+$")


def op_type(name):
    """The op type of an HLO instruction name: ``convolution.12`` -> ``convolution``."""
    return _SUFFIX.sub("", name)


def find_traces(run_dir):
    """The XSpace files of one trace directory (one per host)."""
    return sorted(glob.glob(os.path.join(run_dir, "*.xplane.pb")))


def read_events(xplane_path):
    """(steps, ops): steps as ``(step_num, start_ns, end_ns)``; ops as ``(module, op, start_ns, duration_ns)``."""
    data = ProfileData.from_file(xplane_path)
    steps, ops = [], []
    for plane in data.planes:
        for line in plane.lines:
            for event in line.events:
                stats = dict(event.stats)
                if "hlo_op" in stats:
                    ops.append((str(stats.get("hlo_module", "")), str(stats["hlo_op"]), event.start_ns,
                                event.duration_ns))
                elif event.name == STEP_EVENT and "step_num" in stats:
                    steps.append((int(stats["step_num"]), event.start_ns, event.end_ns))
    steps.sort(key=lambda step: step[1])
    return steps, ops


def _step_of(start, steps):
    for number, begin, end in steps:
        if begin <= start <= end:
            return number
    return None


def summarize(steps, ops):
    """Aggregate op events into the three tables (lists of dict rows); times in microseconds."""
    if steps:
        placed = [(module, op, start, duration, _step_of(start, steps)) for module, op, start, duration in ops]
        placed = [row for row in placed if row[4] is not None]
    else:
        placed = [(module, op, start, duration, None) for module, op, start, duration in ops]
    total = sum(row[3] for row in placed) or 1.0
    by_type = collections.defaultdict(list)
    by_op = collections.defaultdict(list)
    by_step = collections.defaultdict(float)
    for module, op, _start, duration, step in placed:
        by_type[op_type(op)].append(duration)
        by_op[(module, op)].append(duration)
        by_step[step] += duration
    types = [{"OP Type": name, "Count": len(times), "Total Time(us)": round(sum(times) / 1e3, 3),
              "Min Time(us)": round(min(times) / 1e3, 3), "Avg Time(us)": round(sum(times) / len(times) / 1e3, 3),
              "Max Time(us)": round(max(times) / 1e3, 3), "Ratio(%)": round(100.0 * sum(times) / total, 3)}
             for name, times in by_type.items()]
    types.sort(key=lambda row: -row["Total Time(us)"])
    kernels = [{"Module": module, "Name": op, "Type": op_type(op), "Count": len(times),
                "Total Time(us)": round(sum(times) / 1e3, 3), "Avg Time(us)": round(sum(times) / len(times) / 1e3, 3),
                "Ratio(%)": round(100.0 * sum(times) / total, 3)}
               for (module, op), times in by_op.items()]
    kernels.sort(key=lambda row: -row["Total Time(us)"])
    step_rows = [{"Step": number, "Step Time(us)": round((end - begin) / 1e3, 3),
                  "Computing(us)": round(by_step.get(number, 0.0) / 1e3, 3)} for number, begin, end in steps]
    return types, kernels, step_rows


def _write_csv(path, rows, columns):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def _text_table(rows, columns, limit=None):
    shown = rows if limit is None else rows[:limit]
    cells = [[str(row[column]) for column in columns] for row in shown]
    widths = [max([len(column)] + [len(cell[i]) for cell in cells]) for i, column in enumerate(columns)]
    lines = ["  ".join(column.ljust(width) for column, width in zip(columns, widths))]
    lines.append("  ".join("-" * width for width in widths))
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in cells]
    if limit is not None and len(rows) > limit:
        lines.append(f"... {len(rows) - limit} more rows in the CSV file")
    return "\n".join(lines)


TYPE_COLUMNS = ["OP Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)", "Max Time(us)", "Ratio(%)"]
KERNEL_COLUMNS = ["Module", "Name", "Type", "Count", "Total Time(us)", "Avg Time(us)", "Ratio(%)"]
STEP_COLUMNS = ["Step", "Step Time(us)", "Computing(us)"]


def write_tables(run_dir, output_dir, use_steps=True):
    """Parse the trace(s) in ``run_dir`` and write the tables into ``output_dir``; returns the summary path.

    ``use_steps=False`` ignores step marks (a profiler whose ``step()`` was never called recorded one
    span, not one step)."""
    traces = find_traces(run_dir)
    if not traces:
        raise RuntimeError(f"Profiler: no trace (*.xplane.pb) in {run_dir}; was the profiler started and stopped?")
    steps, ops = [], []
    for path in traces:
        trace_steps, trace_ops = read_events(path)
        steps += trace_steps if use_steps else []
        ops += trace_ops
    types, kernels, step_rows = summarize(steps, ops)
    os.makedirs(output_dir, exist_ok=True)
    _write_csv(os.path.join(output_dir, "op_statistic.csv"), types, TYPE_COLUMNS)
    _write_csv(os.path.join(output_dir, "kernel_details.csv"), kernels, KERNEL_COLUMNS)
    _write_csv(os.path.join(output_dir, "step_trace_time.csv"), step_rows, STEP_COLUMNS)
    summary = os.path.join(output_dir, "op_summary.txt")
    with open(summary, "w") as handle:
        handle.write(f"Profiled steps: {len(step_rows) or 'no step marks (the whole profiled span)'}\n")
        if step_rows:
            average = sum(row["Step Time(us)"] for row in step_rows) / len(step_rows)
            handle.write(f"Average step time: {average:.3f} us\n")
        handle.write(f"\nOp time by type ({sum(row['Count'] for row in types)} op executions in the profiled steps):\n")
        handle.write(_text_table(types, TYPE_COLUMNS) + "\n\nTop ops:\n")
        handle.write(_text_table(kernels, KERNEL_COLUMNS, limit=30) + "\n")
        if step_rows:
            handle.write("\nSteps:\n" + _text_table(step_rows, STEP_COLUMNS) + "\n")
    return summary

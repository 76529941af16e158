"""Run MindIR files on real MindSpore 2.10 in its own interpreter (a subprocess), where it exists.

The oracle's interpreter is ``$SPORAX_MINDSPORE_PYTHON`` (default ``/tmp/ms/bin/python``); tests that
need it skip with that reason when it is missing. The child process imports only MindSpore and NumPy; one
child per test process runs every call's files, in the folder of each call.
"""
import atexit
import json
import os
import select
import subprocess
import tempfile
import textwrap

import numpy as np
import pytest

PYTHON = os.environ.get("SPORAX_MINDSPORE_PYTHON", "/tmp/ms/bin/python")
needs_mindspore = pytest.mark.skipif(
    not os.path.exists(PYTHON),
    reason=f"real MindSpore's interpreter {PYTHON} is absent (set SPORAX_MINDSPORE_PYTHON to one "
           "with mindspore 2.10 installed)")

# One child serves every call of a test process (importing MindSpore takes ~3 CPU s): it reads a job file's path
# per line on stdin and answers "done" on its own copy of stdout (MindSpore's prints go to /dev/null).
_SCRIPT = textwrap.dedent("""
    import json, os, sys
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    import runpy
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor, nn

    scripts = {}

    def network(job):
        # a checkpoint job: the script's Cell class with the checkpoint's every Parameter loaded
        if job["script"] not in scripts:
            scripts[job["script"]] = runpy.run_path(job["script"])
        net = scripts[job["script"]][job["cell"]]()
        net.set_train(False)
        missing, _ = ms.load_param_into_net(net, ms.load_checkpoint(job["file"]))
        if missing:
            raise ValueError(f"the checkpoint left {missing} unloaded")
        return net

    for line in sys.stdin:
        os.chdir(os.path.dirname(line.strip()))  # each call's folder, as a child of its own would run there
        for job in json.load(open(line.strip())):
            try:
                key = bytes.fromhex(job["dec_key"]) if job["dec_key"] else None
                if job.get("cell"):
                    run = network(job)
                else:
                    run = nn.GraphCell(ms.load(job["file"], dec_key=key) if key else ms.load(job["file"]))
                inputs = np.load(job["inputs"])
                out = run(*[Tensor(inputs[k]) for k in sorted(inputs)])
                flat = []
                def walk(value):
                    if isinstance(value, (tuple, list)):
                        for item in value:
                            walk(item)
                    else:
                        flat.append(value.asnumpy())
                walk(out)
                np.savez(job["outputs"], *flat)
            except Exception as error:
                open(job["outputs"] + ".error", "w").write(f"{type(error).__name__}: {error}")
        print("done", file=answers, flush=True)
""")
_child = None  # (process, its stderr file), started by the first call


def _mindspore_child():
    global _child
    if _child is None or _child[0].poll() is not None:
        stderr = tempfile.TemporaryFile()
        process = subprocess.Popen([PYTHON, "-c", _SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=stderr, text=True)
        _child = process, stderr
        atexit.register(_stop, process)
    return _child


def _stop(process):
    if process.poll() is None:
        process.stdin.close()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def run_on_mindspore(jobs, folder):
    """``jobs``: ``[(mindir file, [input arrays], dec_key or None)]`` -> per job a list of outputs, or
    the error text MindSpore raised."""
    return _run_jobs([{"file": str(file_name), "inputs": inputs, "dec_key": dec_key.hex() if dec_key else ""}
                      for file_name, inputs, dec_key in jobs], folder)


def run_checkpoints_on_mindspore(jobs, folder):
    """``jobs``: ``[(script, Cell class name, ckpt file, [input arrays])]``: MindSpore builds the class the script
    defines, loads every Parameter from the checkpoint and runs the inputs -> per job its outputs or error text."""
    return _run_jobs([{"script": os.path.abspath(script), "cell": cell, "file": str(file_name), "inputs": inputs,
                       "dec_key": ""} for script, cell, file_name, inputs in jobs], folder)


def _run_jobs(jobs, folder):
    folder = os.path.abspath(folder)
    specs = []
    for index, job in enumerate(jobs):
        input_file = os.path.join(folder, f"ms_in_{index}.npz")
        np.savez(input_file, **{f"x{position:02d}": value for position, value in enumerate(job["inputs"])})
        specs.append({**job, "inputs": input_file, "outputs": os.path.join(folder, f"ms_out_{index}.npz")})
        for stale in (specs[-1]["outputs"], specs[-1]["outputs"] + ".error"):  # an earlier call's in this folder
            if os.path.exists(stale):
                os.remove(stale)
    job_file = os.path.join(folder, "ms_jobs.json")
    with open(job_file, "w") as handle:
        json.dump(specs, handle)
    process, stderr = _mindspore_child()
    try:
        process.stdin.write(job_file + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 900)
        answer = process.stdout.readline() if ready else "timed out after 900 s"
    except BrokenPipeError:
        answer = ""
    if answer != "done\n":
        process.kill()
        process.wait()
        stderr.seek(0)
        raise RuntimeError(f"MindSpore's child ({PYTHON}) did not finish {job_file} ({answer.strip() or 'it exited'}, "
                           f"exit status {process.returncode}):\n{stderr.read().decode(errors='replace')[-4000:]}")
    results = []
    for spec in specs:
        if os.path.exists(spec["outputs"] + ".error"):
            results.append(open(spec["outputs"] + ".error").read())
        else:
            arrays = np.load(spec["outputs"])
            results.append([arrays[f"arr_{index}"] for index in range(len(arrays.files))])
    return results

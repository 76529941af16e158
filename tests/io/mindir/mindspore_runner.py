"""Run MindIR files on real MindSpore 2.10 in its own interpreter (a subprocess), where it exists.

The oracle's interpreter is ``$SPORAX_MINDSPORE_PYTHON`` (default ``/tmp/ms/bin/python``); tests that
need it skip with that reason when it is missing. The child process imports only MindSpore and NumPy.
"""
import json
import os
import subprocess
import textwrap

import numpy as np
import pytest

PYTHON = os.environ.get("SPORAX_MINDSPORE_PYTHON", "/tmp/ms/bin/python")
needs_mindspore = pytest.mark.skipif(
    not os.path.exists(PYTHON),
    reason=f"real MindSpore's interpreter {PYTHON} is absent (set SPORAX_MINDSPORE_PYTHON to one "
           "with mindspore 2.10 installed)")

_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor, nn

    jobs = json.load(open(sys.argv[1]))
    for job in jobs:
        try:
            key = bytes.fromhex(job["dec_key"]) if job["dec_key"] else None
            graph = ms.load(job["file"], dec_key=key) if key else ms.load(job["file"])
            inputs = np.load(job["inputs"])
            out = nn.GraphCell(graph)(*[Tensor(inputs[k]) for k in sorted(inputs)])
            flat, stack = [], [out]
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
""")


def run_on_mindspore(jobs, folder):
    """``jobs``: ``[(mindir file, [input arrays], dec_key or None)]`` -> per job a list of outputs, or
    the error text MindSpore raised."""
    specs = []
    for index, (file_name, inputs, dec_key) in enumerate(jobs):
        input_file = os.path.join(folder, f"ms_in_{index}.npz")
        np.savez(input_file, **{f"x{position:02d}": value for position, value in enumerate(inputs)})
        specs.append({"file": str(file_name), "inputs": input_file, "dec_key": dec_key.hex() if dec_key else "",
                      "outputs": os.path.join(folder, f"ms_out_{index}.npz")})
    job_file = os.path.join(folder, "ms_jobs.json")
    with open(job_file, "w") as handle:
        json.dump(specs, handle)
    subprocess.run([PYTHON, "-c", _SCRIPT, job_file], check=True, timeout=900, cwd=folder,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = []
    for spec in specs:
        if os.path.exists(spec["outputs"] + ".error"):
            results.append(open(spec["outputs"] + ".error").read())
        else:
            arrays = np.load(spec["outputs"])
            results.append([arrays[f"arr_{index}"] for index in range(len(arrays.files))])
    return results

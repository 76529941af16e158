"""Helpers for zoo tests that need a writable copy of a model folder or check the checkpoint a script wrote."""
import glob
import os
import shutil
import stat

import numpy as np


def writable_copy(source, target):
    """Copy a (read-only) zoo model folder to ``target`` with write bits set, for scripts that write beside
    themselves or read a file the zoo snapshot lacks."""
    shutil.copytree(source, target)
    for folder, _, files in os.walk(target):
        os.chmod(folder, os.stat(folder).st_mode | stat.S_IWUSR)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)
    return target


def load_written_checkpoint(pattern, output=""):
    """The parameters of the newest checkpoint matching ``pattern`` (a glob), asserting one exists and every
    value it holds is finite."""
    import sporax as ms
    paths = sorted(glob.glob(pattern, recursive=True), key=os.path.getmtime)
    assert paths, f"no checkpoint matches {pattern}:\n{output[-3000:]}"
    parameters = ms.load_checkpoint(paths[-1])
    assert parameters, f"{paths[-1]} holds no parameter"
    for name, value in parameters.items():
        assert np.isfinite(np.asarray(value.asnumpy(), dtype=np.float64)).all(), f"{name} in {paths[-1]} is not finite"
    return parameters

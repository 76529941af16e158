"""mindspore.dataset.Implementation: the kernel choice a user sets on a transform (``op.implementation``)."""
import numpy as np

from sporax import dataset as ds
from sporax.dataset import vision


def test_enum_members_and_values_as_mindspore():
    # MindSpore 2.10: [<Implementation.C: 0>, <Implementation.PY: 1>].
    assert [(member.name, member.value) for member in ds.Implementation] == [("C", 0), ("PY", 1)]


def test_transforms_start_unset_and_accept_a_choice():
    jitter = vision.RandomColorAdjust(brightness=(1.0, 1.0), contrast=(1.0, 1.0), saturation=(1.0, 1.0))
    assert jitter.implementation is None
    jitter.implementation = ds.Implementation.C
    image = np.arange(4 * 4 * 3, dtype=np.uint8).reshape(4, 4, 3)
    # Factors of exactly 1 leave the image unchanged, whichever kernel is picked (as on MindSpore).
    np.testing.assert_array_equal(jitter(image), image)
    assert jitter.implementation is ds.Implementation.C

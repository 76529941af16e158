"""The compressed integer layout of a MindRecord array field (sporax.mindrecord.schema)."""
import numpy as np
import pytest

from sporax.mindrecord import schema


def test_compressed_integers_use_the_narrowest_width_per_element():
    # count 4 (big-endian); codes 0, 1, 2, 3 packed highest pair first: 0b00011011; then each element
    # little-endian in 1, 2, 4 and 8 bytes
    data = schema.compress_ints(np.array([1, -129, 40000, 2 ** 40], np.int64))
    assert data == (b"\x00\x00\x00\x04" + b"\x1b" + b"\x01" + b"\x7f\xff" + b"\x40\x9c\x00\x00"
                    + b"\x00\x00\x00\x00\x00\x01\x00\x00")
    np.testing.assert_array_equal(schema.decompress_ints(data, "int64"), [1, -129, 40000, 2 ** 40])


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_compressed_integers_round_trip_every_width_boundary(dtype):
    info = np.iinfo(dtype)
    edges = [0, 1, -1, 127, -128, 128, -129, 32767, -32768, 32768, -32769, info.max, info.min]
    values = np.array(edges * 3 + list(range(-300, 300, 7)), dtype)  # a length not a multiple of 4
    back = schema.decompress_ints(schema.compress_ints(values), dtype)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, values)
    image = np.arange(32 * 32 * 3, dtype=np.int64).reshape(32, 32, 3) % 256  # a saved dataset's image field
    np.testing.assert_array_equal(schema.decompress_ints(schema.compress_ints(image), dtype), image.reshape(-1))


def test_compressed_integers_of_the_wrong_length_are_refused():
    data = schema.compress_ints(np.arange(5, dtype=np.int32))
    with pytest.raises(ValueError, match="compressed integers take 11 bytes of a 12-byte field"):
        schema.decompress_ints(data + b"x", "int32")

"""Non-tokenizing text transforms: Lookup, ToNumber, Ngram, SlidingWindow, normalisation, ..."""
import enum
import re
import unicodedata

import numpy as np

from sporax.dataset.text.tokenizers import input_string
from sporax.dataset.text.vocab import Vocab
from sporax.dataset.transforms.base import TensorOperation
from sporax.dataset.transforms.generic import to_numpy_dtype


def _strings(op_name, data):
    """A NumPy array of Python str (bytes decoded)."""
    array = np.asarray(data)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    if array.dtype.kind != "U":
        raise RuntimeError(f"{op_name}: expected string input, got dtype {array.dtype}.")
    return array


class Lookup(TensorOperation):
    """Map tokens to ids with ``vocab``; unknown tokens map to ``unknown_token``'s id (or raise)."""

    def __init__(self, vocab, unknown_token=None, data_type=None):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Lookup: vocab should be a text.Vocab, got {type(vocab).__name__}.")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = data_type
        self._dtype = np.dtype(np.int32) if data_type is None else to_numpy_dtype("Lookup", data_type)
        if self._dtype.kind not in "iu":
            raise TypeError(f"Lookup: data_type should be an integer type, got {data_type!r}.")

    def __call__(self, data):
        tokens = _strings("Lookup", data)
        table = self.vocab._ids
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in table:
                raise RuntimeError(f"Lookup: unknown_token {self.unknown_token!r} doesn't exist in vocab.")
            unknown = table[self.unknown_token]
        ids = []
        for token in tokens.reshape(-1).tolist():
            index = table.get(token, unknown)
            if index is None:
                raise RuntimeError(f'Lookup: invalid data, token: "{token}" doesn\'t exist in vocab and no unknown '
                                   f"token is specified.")
            ids.append(index)
        return np.array(ids, self._dtype).reshape(tokens.shape)


class ToNumber(TensorOperation):
    """Parse strings as numbers of ``data_type`` (a MindSpore or NumPy numeric type)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._dtype = to_numpy_dtype("ToNumber", data_type)
        if self._dtype.kind not in "iuf":
            raise TypeError(f"ToNumber: data_type should be a numeric type, got {data_type!r}.")

    def __call__(self, data):
        strings = _strings("ToNumber", data)
        values = []
        for text in strings.reshape(-1).tolist():
            try:
                value = int(text) if self._dtype.kind in "iu" else float(text)
            except ValueError:
                raise RuntimeError(f'ToNumber: it is invalid to convert "{text}" to a number.') from None
            if self._dtype.kind in "iu":
                info = np.iinfo(self._dtype)
                if not info.min <= value <= info.max:
                    raise RuntimeError(f"ToNumber: string input {text} will be out of bounds if cast to "
                                       f"{self._dtype}. The valid range is: [{info.min}, {info.max}].")
            values.append(value)
        return np.array(values, self._dtype).reshape(strings.shape)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements along ``axis`` (a 1-D input gives shape (n-width+1, width))."""

    def __init__(self, width, axis=0):
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"SlidingWindow: width must be a positive int, got {width!r}.")
        self.width, self.axis = width, axis

    def __call__(self, data):
        array = np.asarray(data)
        if array.ndim != 1:
            raise RuntimeError(f"SlidingWindow: only 1-D input is supported, got shape {array.shape}.")
        if array.shape[0] < self.width:
            return np.empty((0, self.width), array.dtype)
        return np.lib.stride_tricks.sliding_window_view(array, self.width).copy()


class Ngram(TensorOperation):
    """n-grams of a 1-D string array, joined by ``separator``, with optional (pad_token, count) padding."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        n = [n] if isinstance(n, int) else list(n)
        if not n or not all(isinstance(v, int) and v > 0 for v in n):
            raise ValueError(f"Ngram: n should be a positive int or a list of them, got {n!r}.")
        self.n, self.left_pad, self.right_pad, self.separator = n, tuple(left_pad), tuple(right_pad), separator

    def __call__(self, data):
        tokens = _strings("Ngram", data)
        if tokens.ndim != 1:
            raise RuntimeError(f"Ngram: only 1-D input is supported, got shape {tokens.shape}.")
        out = []
        for size in self.n:
            padded = [self.left_pad[0]] * min(self.left_pad[1], size - 1) + tokens.tolist() + \
                [self.right_pad[0]] * min(self.right_pad[1], size - 1)
            out.extend(self.separator.join(padded[i:i + size]) for i in range(len(padded) - size + 1))
        return np.array(out if out else [""])


class Truncate(TensorOperation):
    """Keep at most ``max_seq_len`` elements of a 1-D (or the last axis of a 2-D) array."""

    def __init__(self, max_seq_len):
        if isinstance(max_seq_len, bool) or not isinstance(max_seq_len, int) or max_seq_len < 1:
            raise ValueError(f"Truncate: max_seq_len must be a positive int, got {max_seq_len!r}.")
        self.max_seq_len = max_seq_len

    def __call__(self, data):
        array = np.asarray(data)
        if array.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: input should be 1-D or 2-D, got shape {array.shape}.")
        return array[..., :self.max_seq_len].copy()


class TruncateSequencePair(TensorOperation):
    """Truncate two sequences so their total length is at most ``max_length`` (longer one first)."""

    def __init__(self, max_length):
        self.max_length = max_length

    def __call__(self, first, second):
        first, second = np.asarray(first), np.asarray(second)
        length_a, length_b = len(first), len(second)
        while length_a + length_b > self.max_length:
            if length_a > length_b:
                length_a -= 1
            else:
                length_b -= 1
        return first[:length_a].copy(), second[:length_b].copy()


class AddToken(TensorOperation):
    """Insert ``token`` at the beginning (``begin=True``) or end of a 1-D string array."""

    def __init__(self, token, begin=True):
        if not isinstance(token, str):
            raise TypeError(f"AddToken: token should be a str, got {type(token).__name__}.")
        self.token, self.begin = token, begin

    def __call__(self, data):
        tokens = _strings("AddToken", data).tolist()
        return np.array([self.token] + tokens if self.begin else tokens + [self.token])


def _map_strings(op_name, data, function):
    if isinstance(data, (str, bytes)):
        return np.array(function(input_string(op_name, data)))
    strings = _strings(op_name, data)
    return np.array([function(text) for text in strings.reshape(-1).tolist()]).reshape(strings.shape)


class CaseFold(TensorOperation):
    """Unicode case folding (a stronger lower-case)."""

    def __call__(self, data):
        return _map_strings("CaseFold", data, str.casefold)


class NormalizeForm(enum.IntEnum):
    """Unicode normalisation forms."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class NormalizeUTF8(TensorOperation):
    """Apply a Unicode normalisation form (NFKC by default)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"NormalizeUTF8: normalize_form should be a text.NormalizeForm, got {normalize_form!r}.")
        self.normalize_form = normalize_form

    def __call__(self, data):
        if self.normalize_form == NormalizeForm.NONE:
            return _map_strings("NormalizeUTF8", data, lambda text: text)
        return _map_strings("NormalizeUTF8", data, lambda text: unicodedata.normalize(self.normalize_form.name, text))


class RegexReplace(TensorOperation):
    """Replace matches of ``pattern`` by ``replace`` (all matches, or only the first)."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        self._regex = re.compile(pattern)

    def __call__(self, data):
        count = 0 if self.replace_all else 1
        return _map_strings("RegexReplace", data, lambda text: self._regex.sub(self.replace, text, count=count))


def to_str(array, encoding="utf8"):
    """Decode a bytes array to str."""
    array = np.asarray(array)
    if array.dtype.kind != "S":
        raise TypeError(f"to_str: input should be a NumPy array of bytes, got dtype {array.dtype}.")
    return np.char.decode(array, encoding)


def to_bytes(array, encoding="utf8"):
    """Encode a str array to bytes."""
    array = np.asarray(array)
    if array.dtype.kind != "U":
        raise TypeError(f"to_bytes: input should be a NumPy array of str, got dtype {array.dtype}.")
    return np.char.encode(array, encoding)

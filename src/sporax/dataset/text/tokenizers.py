"""Tokenizers of ``mindspore.dataset.text``: a string scalar in, a 1-D string array out.

With ``with_offsets=True`` a tokenizer returns (tokens, offsets_start, offsets_limit): UTF-8 byte
offsets as uint32 arrays, as MindSpore does.
"""
import re
import unicodedata

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def input_string(op_name, text):
    """The Python str of a scalar string input (str, bytes or a 0-d string array)."""
    if isinstance(text, np.ndarray):
        if text.ndim != 0 or text.dtype.kind not in "US":
            raise RuntimeError(f"{op_name}: the input shape should be scalar and the input datatype should be "
                               f"string, got shape {text.shape} and dtype {text.dtype}.")
        text = text.item()
    if isinstance(text, bytes):
        return text.decode("utf-8")
    if not isinstance(text, str):
        raise RuntimeError(f"{op_name}: the input should be a string scalar, got {type(text).__name__}.")
    return text


def _result(pieces, with_offsets):
    """Tokens (and byte offsets) from a list of (token, char_start, char_end, text) pieces."""
    if not pieces:
        tokens = np.array([""])
        if with_offsets:
            return tokens, np.array([0], np.uint32), np.array([0], np.uint32)
        return tokens
    tokens = np.array([piece[0] for piece in pieces])
    if not with_offsets:
        return tokens
    text = pieces[0][3]
    starts = [len(text[:piece[1]].encode("utf-8")) for piece in pieces]
    limits = [start + len(text[piece[1]:piece[2]].encode("utf-8")) for start, piece in zip(starts, pieces)]
    return tokens, np.array(starts, np.uint32), np.array(limits, np.uint32)


def _check_bool(op_name, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{op_name}: {name} should be a bool, got {type(value).__name__}.")
    return value


class _Tokenizer(TensorOperation):
    def __init__(self, with_offsets=False):
        self.with_offsets = _check_bool(type(self).__name__, "with_offsets", with_offsets)

    def _pieces(self, text):
        raise NotImplementedError(f"{type(self).__name__} must implement _pieces() (an internal method of its base class).")

    def __call__(self, text):
        text = input_string(type(self).__name__, text)
        return _result([piece + (text,) for piece in self._pieces(text)], self.with_offsets)


class WhitespaceTokenizer(_Tokenizer):
    """Split on ICU whitespace."""

    def _pieces(self, text):
        return [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]


class UnicodeCharTokenizer(_Tokenizer):
    """Split into single Unicode characters."""

    def _pieces(self, text):
        return [(char, index, index + 1) for index, char in enumerate(text)]


class RegexTokenizer(_Tokenizer):
    """Split where ``delim_pattern`` matches; delimiters matching ``keep_delim_pattern`` are kept as tokens."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        super().__init__(with_offsets)
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self._delim = re.compile(delim_pattern)
        self._keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None

    def _pieces(self, text):
        pieces, position = [], 0
        for match in self._delim.finditer(text):
            if match.start() > position:
                pieces.append((text[position:match.start()], position, match.start()))
            if self._keep is not None and match.group() and self._keep.fullmatch(match.group()):
                pieces.append((match.group(), match.start(), match.end()))
            position = match.end()
        if position < len(text):
            pieces.append((text[position:], position, len(text)))
        return pieces


def _script(char):
    if char.isspace():
        return "space"
    if char.isdigit():
        return "digit"
    name = unicodedata.name(char, "")
    return name.split(" ")[0] if name else "unknown"


class UnicodeScriptTokenizer(_Tokenizer):
    """Split where the Unicode script changes (whitespace dropped unless ``keep_whitespace``)."""

    def __init__(self, keep_whitespace=False, with_offsets=False):
        super().__init__(with_offsets)
        self.keep_whitespace = _check_bool("UnicodeScriptTokenizer", "keep_whitespace", keep_whitespace)

    def _pieces(self, text):
        pieces, start = [], 0
        for index in range(1, len(text) + 1):
            if index == len(text) or _script(text[index]) != _script(text[start]):
                if self.keep_whitespace or not text[start].isspace():
                    pieces.append((text[start:index], start, index))
                start = index
        return pieces


def _is_punctuation(char):
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(char):
    code = ord(char)
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
            or 0x2A700 <= code <= 0x2B73F or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF
            or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F)


_UNUSED = re.compile(r"\[(UNK|CLS|SEP|PAD|MASK|unused\d+)\]")


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenizer: split on whitespace, punctuation and CJK characters (optionally lower-case)."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=None, preserve_unused_token=True,
                 with_offsets=False):
        super().__init__(with_offsets)
        self.lower_case = _check_bool("BasicTokenizer", "lower_case", lower_case)
        self.keep_whitespace = _check_bool("BasicTokenizer", "keep_whitespace", keep_whitespace)
        self.normalization_form = normalization_form
        self.preserve_unused_token = _check_bool("BasicTokenizer", "preserve_unused_token", preserve_unused_token)

    def _normalize(self, text):
        if self.lower_case:
            text = unicodedata.normalize("NFD", text.casefold())
            return "".join(char for char in text if unicodedata.category(char) != "Mn")
        form = getattr(self.normalization_form, "name", self.normalization_form)
        if form and form != "NONE":
            text = unicodedata.normalize(form, text)
        return text

    def _pieces(self, text):
        # Offsets refer to the normalised text when normalisation changes its length.
        text = self._normalize(text)
        pieces, start, index = [], None, 0
        while index < len(text):
            char = text[index]
            if self.preserve_unused_token and char == "[":
                match = _UNUSED.match(text, index)
                if match:
                    if start is not None:
                        pieces.append((text[start:index], start, index))
                        start = None
                    pieces.append((match.group(), index, match.end()))
                    index = match.end()
                    continue
            if char.isspace() or _is_punctuation(char) or _is_cjk(char):
                if start is not None:
                    pieces.append((text[start:index], start, index))
                    start = None
                if not char.isspace() or self.keep_whitespace:
                    pieces.append((char, index, index + 1))
            elif unicodedata.category(char) not in ("Cc", "Cf") or char in "\t\n\r":
                if start is None:
                    start = index
            index += 1
        if start is not None:
            pieces.append((text[start:], start, len(text)))
        return pieces


class WordpieceTokenizer(TensorOperation):
    """Split each token of a 1-D string array into the longest word pieces found in ``vocab``.

    With ``with_offsets=True`` it also returns each piece's UTF-8 byte offsets (start, limit)
    within the token it came from, as MindSpore does.
    """

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False):
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = _check_bool("WordpieceTokenizer", "with_offsets", with_offsets)

    def _split(self, word):
        """(piece, byte start, byte limit) of each word piece of ``word``."""
        whole = [(self.unknown_token if self.unknown_token else word, 0, len(word.encode("utf-8")))]
        if len(word.encode("utf-8")) > self.max_bytes_per_token:
            return whole
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.suffix_indicator + word[start:end]
                if piece in self.vocab:
                    break
                end -= 1
            if end == start:
                return whole
            pieces.append((piece, len(word[:start].encode("utf-8")), len(word[:end].encode("utf-8"))))
            start = end
        return pieces

    def _pieces(self, tokens):
        tokens = np.asarray(tokens).reshape(-1)
        return [piece for token in tokens.tolist() for piece in self._split(
            token.decode("utf-8") if isinstance(token, bytes) else token)]

    def __call__(self, tokens):
        pieces = self._pieces(tokens)
        if not self.with_offsets:
            return np.array([piece[0] for piece in pieces] or [""])
        if not pieces:
            return np.array([""]), np.array([0], np.uint32), np.array([0], np.uint32)
        return (np.array([piece[0] for piece in pieces]), np.array([piece[1] for piece in pieces], np.uint32),
                np.array([piece[2] for piece in pieces], np.uint32))


class BertTokenizer(TensorOperation):
    """BasicTokenizer followed by WordpieceTokenizer.

    With ``with_offsets=True`` the offsets of each word piece are UTF-8 byte offsets in the
    (normalised) text, as MindSpore gives them.
    """

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 lower_case=False, keep_whitespace=False, normalization_form=None, preserve_unused_token=True,
                 with_offsets=False):
        self.with_offsets = _check_bool("BertTokenizer", "with_offsets", with_offsets)
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token,
                                     with_offsets=self.with_offsets)
        self._wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token)

    def __call__(self, text):
        if not self.with_offsets:
            return self._wordpiece(self._basic(text))
        words, starts, _ = self._basic(text)
        pieces = [(piece, int(start) + piece_start, int(start) + piece_limit)
                  for word, start in zip(words.tolist(), starts.tolist()) if word
                  for piece, piece_start, piece_limit in self._wordpiece._split(word)]
        if not pieces:
            return np.array([""]), np.array([0], np.uint32), np.array([0], np.uint32)
        return (np.array([piece[0] for piece in pieces]), np.array([piece[1] for piece in pieces], np.uint32),
                np.array([piece[2] for piece in pieces], np.uint32))


class PythonTokenizer(TensorOperation):
    """Tokenize with a Python function ``tokenizer(str) -> list of str``."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: tokenizer should be a callable, got {type(tokenizer).__name__}.")
        self.tokenizer = tokenizer

    def __call__(self, in_array):
        if not isinstance(in_array, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(in_array)}.")
        text = input_string("PythonTokenizer", in_array)
        tokens = self.tokenizer(text)
        return np.array(list(tokens) if len(tokens) else [""])

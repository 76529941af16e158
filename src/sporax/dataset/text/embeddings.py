"""Pre-trained word embeddings (``Vectors``, ``GloVe``, ``FastText``, ``CharNGram``) and the
``ToVectors`` transform that looks tokens up in them.

The files are text: one token per line followed by its values, separated by spaces; a first
line of two integers (word2vec's "count dim" header, as FastText's .vec files have) is skipped.
"""
import os
import re

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def _read_vectors(where, file_path, max_vectors):
    if not isinstance(file_path, str):
        raise TypeError(f"{where}.from_file: file_path must be a str, but got "
                        f"{type(file_path).__name__}.")
    if not os.path.isfile(file_path):
        raise RuntimeError(f"{where}: invalid file, {file_path} does not exist or permission "
                           "denied.")
    if max_vectors is not None and (not isinstance(max_vectors, int) or
                                    isinstance(max_vectors, bool) or max_vectors < 0):
        raise TypeError(f"{where}.from_file: max_vectors must be a non-negative int or None.")
    tokens, rows, dim = {}, [], None
    with open(file_path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            parts = line.rstrip("\r\n").split(" ")
            parts = [p for p in parts if p != ""] if len(parts) > 2 else parts
            if number == 1 and len(parts) == 2 and all(p.isdigit() for p in parts):
                continue  # "count dim" header
            if len(parts) < 2:
                continue
            if max_vectors is not None and len(rows) >= max_vectors:
                break
            if dim is None:
                dim = len(parts) - 1
            elif len(parts) - 1 != dim:
                raise RuntimeError(f"{where}: line {number} of {file_path} has {len(parts) - 1} "
                                   f"values where the first vector has {dim}.")
            if parts[0] in tokens:
                continue
            try:
                rows.append(np.array(parts[1:], dtype=np.float32))
            except ValueError:
                raise RuntimeError(f"{where}: line {number} of {file_path} holds a value that "
                                   "is not a number.") from None
            tokens[parts[0]] = len(rows) - 1
    matrix = np.stack(rows) if rows else np.zeros((0, 0), np.float32)
    return tokens, matrix


class Vectors:
    """Pre-trained word vectors read from a text file (``Vectors.from_file``).

    Examples:
        >>> import sporax.dataset.text as text
        >>> vectors = text.Vectors.from_file("/path/to/vectors.txt")  # doctest: +SKIP
        >>> text.ToVectors(vectors)(["happy", "birthday"])  # doctest: +SKIP
    """

    _pattern = None  # the file names a subclass accepts (a regex on the base name)
    _expected = ""

    def __init__(self, tokens, matrix):
        self._tokens, self._matrix = tokens, matrix

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        """Read the vectors of ``file_path`` (at most ``max_vectors`` of them, first ones first).

        Args:
            file_path (str): the vectors file.
            max_vectors (int, optional): read only this many vectors. Default None: all.

        Returns:
            the vectors object.
        """
        where = cls.__name__
        if cls._pattern is not None and isinstance(file_path, str) and \
                not re.fullmatch(cls._pattern, os.path.basename(file_path)):
            raise RuntimeError(f"{where}: invalid file, can not find file '{cls._expected}', but "
                               f"got: {file_path}")
        return cls(*_read_vectors(where, file_path, max_vectors))

    @property
    def dim(self):
        return self._matrix.shape[1] if self._matrix.size else 0

    def _lookup(self, token, lower_case_backup):
        index = self._tokens.get(token)
        if index is None and lower_case_backup:
            index = self._tokens.get(token.lower())
        return None if index is None else self._matrix[index]


class GloVe(Vectors):
    """GloVe vectors (files named ``glove.6B.*.txt``); see :class:`Vectors`."""

    _pattern = r"glove\.6B\..*\.txt"
    _expected = "glove.6B.*.txt"


class FastText(Vectors):
    """FastText vectors (``*.vec`` files with a "count dim" header); see :class:`Vectors`."""

    _pattern = r".*\.vec"
    _expected = "*.vec"


class CharNGram(Vectors):
    """Character n-gram vectors (lines ``<n>gram-<chars> values``): a token's vector is the
    mean of the vectors of its 2-, 3- and 4-grams over ``#BEGIN#`` + its characters + ``#END#``
    that the file has; see :class:`Vectors`."""

    def _lookup(self, token, lower_case_backup):
        found = super()._lookup(token, lower_case_backup)
        if found is not None:
            return found
        characters = ["#BEGIN#"] + list(token) + ["#END#"]
        total, count = np.zeros(self.dim, np.float32), 0
        for n in (2, 3, 4):
            for start in range(len(characters) - n + 1):
                index = self._tokens.get(f"{n}gram-{''.join(characters[start:start + n])}")
                if index is not None:
                    total += self._matrix[index]
                    count += 1
        return total / count if count else None


class ToVectors(TensorOperation):
    """Look tokens up in pre-trained vectors: a string scalar gives a 1-D float32 vector, a
    1-D string array a (tokens, dim) matrix.

    Args:
        vectors (Vectors): the vectors (Vectors, GloVe, FastText or CharNGram).
        unk_init (sequence, optional): the vector of unknown tokens. Default None: zeros.
        lower_case_backup (bool, optional): look an unknown token up again in lower case.
            Default False.

    Examples:
        >>> import sporax.dataset.text as text
        >>> vectors = text.Vectors.from_file("/path/to/vectors.txt")  # doctest: +SKIP
        >>> text.ToVectors(vectors, unk_init=[0.0] * 6)("happy")  # doctest: +SKIP
    """

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        if not isinstance(vectors, Vectors):
            raise TypeError(f"ToVectors: vectors must be a Vectors, GloVe, FastText or CharNGram "
                            f"object, but got {type(vectors).__name__}.")
        if unk_init is not None:
            if not isinstance(unk_init, (list, tuple)) or \
                    not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                            for v in unk_init):
                raise TypeError("ToVectors: unk_init must be a sequence of int or float values.")
            if vectors.dim and len(unk_init) != vectors.dim:
                raise ValueError(f"ToVectors: unk_init has {len(unk_init)} values but the vectors "
                                 f"have {vectors.dim} dimensions.")
        if not isinstance(lower_case_backup, bool):
            raise TypeError("ToVectors: lower_case_backup must be a bool.")
        self.vectors, self.unk_init, self.lower_case_backup = vectors, unk_init, lower_case_backup

    def _vector(self, token):
        found = self.vectors._lookup(token, self.lower_case_backup)
        if found is not None:
            return found
        if self.unk_init is not None:
            return np.asarray(self.unk_init, np.float32)
        return np.zeros(self.vectors.dim, np.float32)

    def __call__(self, tokens):
        array = np.asarray(tokens)
        if array.dtype.kind not in "US" and not (array.dtype == object and
                                                 all(isinstance(t, (str, bytes)) for t in array.flat)):
            raise RuntimeError("ToVectors: input tensor type should be string, but got "
                               f"{array.dtype}.")
        words = [t.decode("utf-8") if isinstance(t, bytes) else str(t) for t in array.reshape(-1)]
        result = np.stack([self._vector(w) for w in words]) if words else \
            np.zeros((0, self.vectors.dim), np.float32)
        return result[0] if array.ndim == 0 else result.astype(np.float32)

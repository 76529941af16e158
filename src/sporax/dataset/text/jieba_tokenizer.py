"""``JiebaTokenizer``: Chinese word segmentation with a Jieba dictionary and HMM model.

The dictionary (``mp_path``: lines ``word freq [tag]``) drives the max-probability
segmentation through the ``jieba`` package (the optional extra ``sporax[text]``); the HMM model
(``hmm_path``: cppjieba's ``hmm_model.utf8``: start, transition and emission log-probabilities
of the B/E/M/S states) is read here and decoded with Viterbi, for the HMM mode and for the runs
of unknown characters in the MIX mode.
"""
import enum
import math
import os
import re

import numpy as np

from sporax.dataset.text.tokenizers import _check_bool, _result, input_string
from sporax.dataset.transforms.base import TensorOperation

_STATES = "BEMS"
_PREVIOUS = {"B": "ES", "M": "MB", "S": "SE", "E": "BM"}
_MIN = -3.14e100
_HAN = re.compile(r"([\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-]+)")
_SKIP = re.compile(r"(\r\n|\s)")
_ALNUM = re.compile(r"([a-zA-Z0-9]+(?:\.\d+)?)")


class JiebaMode(enum.IntEnum):
    """The segmentation of :class:`JiebaTokenizer`: MIX (max probability, then HMM on unknown
    runs), MP (max probability only) or HMM (the hidden Markov model only)."""

    MIX = 0
    MP = 1
    HMM = 2


def _jieba():
    try:
        import jieba
    except ImportError:
        raise ImportError("JiebaTokenizer needs the `jieba` package: install sporax's text extra "
                          "(pip install 'sporax[text]') or `pip install jieba`.") from None
    return jieba


def read_hmm_model(path):
    """cppjieba's HMM model file as (start, transition, emission) log-probability dicts."""
    with open(path, encoding="utf-8") as handle:
        lines = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    if len(lines) < 9:
        raise RuntimeError(f"JiebaTokenizer: {path} is not a Jieba HMM model (it needs a start "
                           "line, 4 transition lines and 4 emission lines).")
    try:
        start = dict(zip(_STATES, map(float, lines[0].split())))
        transition = {state: dict(zip(_STATES, map(float, lines[1 + i].split())))
                      for i, state in enumerate(_STATES)}
        emission = {}
        for i, state in enumerate(_STATES):
            table = {}
            for item in lines[5 + i].split(","):
                char, _, value = item.rpartition(":")
                if char:
                    table[char] = float(value)
            emission[state] = table
    except ValueError as error:
        raise RuntimeError(f"JiebaTokenizer: {path} is not a Jieba HMM model: {error}.") from None
    return start, transition, emission


def _viterbi(text, model):
    start, transition, emission = model
    table = [{s: start[s] + emission[s].get(text[0], _MIN) for s in _STATES}]
    path = {s: [s] for s in _STATES}
    for char in text[1:]:
        table.append({})
        new_path = {}
        for state in _STATES:
            score = emission[state].get(char, _MIN)
            best, previous = max((table[-2][p] + transition[p].get(state, _MIN) + score, p)
                                 for p in _PREVIOUS[state])
            table[-1][state] = best
            new_path[state] = path[previous] + [state]
        path = new_path
    _, last = max((table[-1][s], s) for s in "ES")
    return path[last]


def hmm_cut(text, model):
    """Words of ``text`` by the HMM alone (outside Chinese runs: letter/digit runs and single
    characters)."""
    words = []
    for block in re.split(r"([\u4E00-\u9FD5]+)", text):
        if not block:
            continue
        if not re.match(r"[\u4E00-\u9FD5]", block):
            # letters and digits (a decimal point included) stay together, any other character
            # is a word of its own
            for part in _ALNUM.split(block):
                words.extend([part] if _ALNUM.fullmatch(part) else list(part))
            continue
        begin = 0
        states = _viterbi(block, model)
        for i, state in enumerate(states):
            if state == "B":
                begin = i
            elif state == "E":
                words.append(block[begin:i + 1])
                begin = i + 1
            elif state == "S":
                words.append(block[i])
                begin = i + 1
        if begin < len(block):
            words.append(block[begin:])
    return words


class JiebaTokenizer(TensorOperation):
    """Segment Chinese text into words with a Jieba dictionary and HMM model.

    Args:
        hmm_path (str): cppjieba's HMM model file (hmm_model.utf8).
        mp_path (str): the dictionary (jieba.dict.utf8: ``word freq [tag]`` lines).
        mode (JiebaMode, optional): MIX (default), MP or HMM.
        with_offsets (bool, optional): also output the UTF-8 byte offsets of each token.
            Default False.

    Inputs:
        text: a string scalar.

    Outputs:
        the tokens (1-D string array), and with ``with_offsets`` their start and end offsets.

    Examples:
        >>> import sporax.dataset.text as text
        >>> tokenizer = text.JiebaTokenizer("hmm_model.utf8", "jieba.dict.utf8",
        ...                                 mode=text.JiebaMode.MP)  # doctest: +SKIP
        >>> tokenizer("床前明月光")  # doctest: +SKIP
        array(['床', '前', '明月光'], dtype='<U3')
    """

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        for name, path in (("hmm_path", hmm_path), ("mp_path", mp_path)):
            if not isinstance(path, str):
                raise TypeError(f"JiebaTokenizer: {name} must be a str, but got "
                                f"{type(path).__name__}.")
            if not os.path.isfile(path):
                raise ValueError(f"JiebaTokenizer: {name} {path} does not exist or is not a file.")
        if not isinstance(mode, JiebaMode):
            raise TypeError(f"JiebaTokenizer: mode must be a JiebaMode, but got {mode!r}.")
        self.hmm_path, self.mp_path, self.mode = hmm_path, mp_path, mode
        self.with_offsets = _check_bool("JiebaTokenizer", "with_offsets", with_offsets)
        self._model = read_hmm_model(hmm_path)
        self._tokenizer = None
        self._added = []

    def _dictionary(self):
        if self._tokenizer is None:
            tokenizer = _jieba().Tokenizer(dictionary=self.mp_path)
            # the frequencies are read here, not through Tokenizer.initialize, which would write
            # a cache file into the temporary folder
            with open(self.mp_path, "rb") as handle:
                tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(handle)
            tokenizer.initialized = True
            for word, freq in self._added:
                tokenizer.add_word(word, freq)
            self._tokenizer = tokenizer
        return self._tokenizer

    def add_word(self, word, freq=None):
        """Add ``word`` to the dictionary (``freq``: its frequency; None lets Jieba pick one
        that keeps the word whole)."""
        if not isinstance(word, str):
            raise TypeError(f"JiebaTokenizer.add_word: word must be a str, but got "
                            f"{type(word).__name__}.")
        if freq is not None and (not isinstance(freq, int) or freq < 0):
            raise ValueError("JiebaTokenizer.add_word: freq must be a non-negative int or None.")
        self._added.append((word, freq))
        if self._tokenizer is not None:
            self._tokenizer.add_word(word, freq)

    def add_dict(self, user_dict):
        """Add words from a dict {word: freq} or a file of ``word [freq]`` lines."""
        if isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
            return
        if not isinstance(user_dict, str) or not os.path.isfile(user_dict):
            raise ValueError("JiebaTokenizer.add_dict: user_dict must be a dict or the path of "
                             "an existing dictionary file.")
        with open(user_dict, encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if not parts:
                    continue
                self.add_word(parts[0], int(parts[1]) if len(parts) > 1 and parts[1].isdigit()
                              else None)

    def _mp_words(self, sentence):
        tokenizer = self._dictionary()
        dag = tokenizer.get_DAG(sentence)
        route = {}
        tokenizer.calc(sentence, dag, route)
        words, position = [], 0
        while position < len(sentence):
            end = route[position][1] + 1
            words.append(sentence[position:end])
            position = end
        return words

    def _mix_words(self, sentence):
        frequencies, words, buffer = self._dictionary().FREQ, [], ""

        def flush():
            if len(buffer) == 1 or (buffer and frequencies.get(buffer)):
                words.extend(buffer if len(buffer) == 1 else [buffer])
            elif buffer:
                words.extend(hmm_cut(buffer, self._model))

        for word in self._mp_words(sentence):
            if len(word) == 1:
                buffer += word
                continue
            flush()
            buffer = ""
            words.append(word)
        flush()
        return words

    def _segment(self, text):
        if self.mode == JiebaMode.HMM:
            return hmm_cut(text, self._model)
        cut = self._mp_words if self.mode == JiebaMode.MP else self._mix_words
        words = []
        for block in _HAN.split(text):
            if not block:
                continue
            if _HAN.fullmatch(block):
                words.extend(cut(block))
            else:
                words.extend(w for w in _SKIP.split(block) if w)
        return words

    def __call__(self, text):
        text = input_string("JiebaTokenizer", text)
        pieces, position = [], 0
        for word in self._segment(text):
            pieces.append((word, position, position + len(word), text))
            position += len(word)
        return _result(pieces, self.with_offsets)

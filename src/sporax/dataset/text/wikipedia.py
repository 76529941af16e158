"""``FilterWikipediaXML``: Wikipedia dump text to lower-case letters and single spaces."""
import re

import numpy as np

from sporax.dataset.transforms.base import TensorOperation

_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TAG = re.compile(r"<.*>")  # greedy within a line, as Matt Mahoney's wikifil.pl filter
_ENTITY = re.compile(r"&[^;\s]*;")
_NOT_LETTER = re.compile(r"[^a-z]+")


def filter_wikipedia(text):
    """One string filtered: a #REDIRECT page gives ''; markup tags and entities go, A-Z become
    a-z, digits are spelled out, every other run of characters becomes one space."""
    if "#redirect" in text.lower():
        return ""
    text = "\n".join(_TAG.sub("", line) for line in text.split("\n"))
    text = _ENTITY.sub(" ", text)
    text = "".join(f" {_DIGITS[ord(c) - 48]} " if "0" <= c <= "9" else c for c in text)
    text = "".join(c.lower() if "A" <= c <= "Z" else c for c in text)
    return _NOT_LETTER.sub(" ", text).strip()


class FilterWikipediaXML(TensorOperation):
    """Filter Wikipedia XML dump text to clean text: lower-case letters a-z and single spaces
    (digits spelled out, tags, entities and every other character removed).

    Inputs:
        text: a string scalar or array.

    Outputs:
        the filtered strings, same shape.

    Examples:
        >>> import sporax.dataset.text as text
        >>> print(text.FilterWikipediaXML()("Welcome    to    China"))
        welcome to china
    """

    def __call__(self, text):
        array = np.asarray(text)
        if array.dtype.kind not in "US":
            raise RuntimeError(f"FilterWikipediaXML: the input should be string, but got "
                               f"{array.dtype}.")
        out = [filter_wikipedia(v.decode("utf-8") if isinstance(v, bytes) else str(v))
               for v in array.reshape(-1)]
        return np.array(out, dtype=np.str_).reshape(array.shape)

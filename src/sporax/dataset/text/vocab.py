"""``text.Vocab``: the token <-> id table used by Lookup and the tokenizers."""
import collections

import numpy as np

from sporax.dataset.text.cpp_map_order import iteration_order


def _check_special(special_tokens, special_first):
    if special_tokens is not None and (not isinstance(special_tokens, (list, tuple)) or not all(
            isinstance(token, str) for token in special_tokens)):
        raise TypeError(f"Vocab: special_tokens should be a list of str, got {special_tokens!r}.")
    if not isinstance(special_first, bool):
        raise TypeError(f"Vocab: special_first should be a bool, got {type(special_first).__name__}.")
    tokens = list(special_tokens or [])
    if len(set(tokens)) != len(tokens):
        raise ValueError("special_tokens contains duplicate word.")
    return tokens


class Vocab:
    """A mapping from tokens (str) to ids (int).

    Build it with ``from_list``, ``from_dict``, ``from_file`` or ``from_dataset``.
    """

    def __init__(self):
        self._ids = {}
        self._tokens = {}
        self._inserted = []  # the order MindSpore's C++ table received the tokens: vocab() lists them as it does

    @classmethod
    def _from_pairs(cls, pairs, inserted=None):
        vocab = cls()
        vocab._ids = dict(pairs)
        vocab._tokens = {index: token for token, index in vocab._ids.items()}
        vocab._inserted = list(vocab._ids) if inserted is None else inserted
        return vocab

    @classmethod
    def _with_specials(cls, words, special_tokens, special_first, specials_inserted_last=True):
        specials = _check_special(special_tokens, special_first)
        clash = set(specials) & set(words)
        if clash:
            raise ValueError(f"special_tokens and word_list contain duplicate word: {sorted(clash)[0]}.")
        ordered = specials + list(words) if special_first else list(words) + specials
        # MindSpore's from_list/from_file store the words, then the special tokens; from_dataset stores by id
        inserted = list(words) + specials if specials_inserted_last else ordered
        return cls._from_pairs(((token, index) for index, token in enumerate(ordered)), inserted)

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order (special tokens first or last)."""
        if not isinstance(word_list, (list, tuple)) or not all(isinstance(word, str) for word in word_list):
            raise TypeError(f"Vocab.from_list: word_list should be a list of str, got {word_list!r}.")
        seen = set()
        for word in word_list:
            if word in seen:
                raise ValueError(f"word_list contains duplicate word: {word}.")
            seen.add(word)
        return cls._with_specials(word_list, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """Use the given {token: id} mapping (ids must be non-negative ints)."""
        if not isinstance(word_dict, dict):
            raise TypeError(f"Vocab.from_dict: word_dict should be a dict, got {type(word_dict).__name__}.")
        for token, index in word_dict.items():
            if not isinstance(token, str) or isinstance(index, bool) or not isinstance(index, int) or index < 0:
                raise ValueError(f"Vocab.from_dict: expected str keys and non-negative int ids, got {token!r}: "
                                 f"{index!r}.")
        # the dict reaches MindSpore as a reserved C++ map (pybind) whose entries are copied into the Vocab's
        inserted = iteration_order(list(word_dict), reserved=len(word_dict))
        return cls._from_pairs(word_dict.items(), inserted)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One token per line (the part before ``delimiter``), at most ``vocab_size`` tokens."""
        words = []
        with open(file_path, encoding="utf-8") as handle:
            for line in handle:
                line = line.rstrip("\r\n")
                word = line.split(delimiter)[0] if delimiter else line
                if not word:
                    continue
                if word in words:
                    raise ValueError(f"Vocab.from_file: duplicate word in {file_path}: {word}.")
                words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._with_specials(words, special_tokens, special_first)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None,
                     special_first=True):
        """Count the tokens of ``columns`` of ``dataset``; keep those with frequency in ``freq_range``, the
        ``top_k`` most frequent (ties broken alphabetically)."""
        counts = collections.Counter()
        names = dataset.get_col_names()
        if columns is None:
            columns = names
        elif isinstance(columns, str):
            columns = [columns]
        positions = [names.index(column) for column in columns]
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for position in positions:
                tokens = np.asarray(row[position]).reshape(-1)
                counts.update(token.decode("utf-8") if isinstance(token, bytes) else str(token) for token in tokens)
        low, high = freq_range if freq_range is not None else (0, None)
        kept = [(word, count) for word, count in counts.items()
                if count >= low and (high is None or count <= high)]
        kept.sort(key=lambda item: (-item[1], item[0]))
        if top_k is not None:
            kept = kept[:top_k]
        specials = set(special_tokens or [])
        return cls._with_specials([word for word, _ in kept if word not in specials], special_tokens, special_first,
                                  specials_inserted_last=False)

    def vocab(self):
        """The {token: id} dictionary, in the order MindSpore's C++ table iterates (see ``cpp_map_order``)."""
        return {token: self._ids[token] for token in iteration_order(self._inserted)}

    def tokens_to_ids(self, tokens):
        """Id of a token (-1 when absent), or a list of ids for a list of tokens."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        return [self._ids.get(token, -1) for token in tokens]

    def ids_to_tokens(self, ids):
        """Token of an id ('' when absent), or a list of tokens for a list of ids."""
        if isinstance(ids, (int, np.integer)):
            return self._tokens.get(int(ids), "")
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        return [self._tokens.get(int(index), "") for index in ids]

    def __len__(self):
        return len(self._ids)

    def __contains__(self, token):
        return token in self._ids

    def __repr__(self):
        return f"Vocab(size={len(self._ids)})"

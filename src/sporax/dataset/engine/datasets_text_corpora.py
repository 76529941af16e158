"""Text corpus loaders: the CSV news/review corpora, line corpora, token-per-line corpora, IMDB
and SST-2, each reading the on-disk layout MindSpore documents for it.

Every string cell is a 0-d ``str`` array; token-per-line corpora give one 1-d array per sentence.
"""
import csv
import json
import os

import numpy as np

from sporax.dataset.engine.datasets_text import expand_files, read_errors_name
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.table_sources import (
    FileCorpusDataset,
    TableDataset,
    check_choice,
    check_dir,
    read_lines,
    string,
)


class _CorpusDataset(FileCorpusDataset):
    """A corpus of fixed files in ``dataset_dir`` chosen by ``usage``.

    ``_files``: {usage: [file names]}; 'all' reads the files of every usage in ``_all_order``.
    """

    _files = {}
    _all_order = ()
    _columns = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage, list(self._files) + ["all"], "all")
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _column_names(self):
        return list(self._columns)

    def _paths(self):
        usages = self._all_order if self.usage == "all" else (self.usage,)
        paths = [os.path.join(self.dataset_dir, name) for usage in usages
                 for name in self._files[usage]]
        return [path for path in paths if os.path.isfile(path)]

    def _file_rows(self):
        return [self._parse(path) for path in self._paths()]

    def _parse(self, path):
        raise NotImplementedError(f"{type(self).__name__} must implement _parse() (an internal "
                                  "method of its base class).")


class _ShuffleBeforeShards:
    """MindSpore's parameter order for some corpora: shuffle, num_shards, shard_id before the workers."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)


class _CSVCorpusDataset(_CorpusDataset):
    """Quoted CSV files ``train.csv``/``test.csv``, one string column per field."""

    _files = {"train": ["train.csv"], "test": ["test.csv"]}
    _all_order = ("test", "train")

    def _parse(self, path):
        rows = []
        with read_errors_name(type(self).__name__, path):
            with open(path, newline="", encoding="utf-8") as handle:
                for number, fields in enumerate(csv.reader(handle), 1):
                    if not fields:
                        continue
                    if len(fields) != len(self._columns):
                        raise RuntimeError(f"{type(self).__name__}: line {number} of {path} has "
                                           f"{len(fields)} fields where the dataset has "
                                           f"{len(self._columns)} columns {list(self._columns)}; "
                                           "the file is damaged or of another dataset.")
                    rows.append(tuple(string(field) for field in fields))
        return rows


class AGNewsDataset(_CSVCorpusDataset):
    """AG News (``train.csv``/``test.csv``): columns index, title, description (strings).

    Args:
        dataset_dir (str): The folder holding train.csv and test.csv.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source (``shuffle`` a bool or Shuffle; False keeps MindSpore's file order).

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.AGNewsDataset("/path/to/ag_news", usage="train", shuffle=False)
    """

    _columns = ("index", "title", "description")


class AmazonReviewDataset(_CSVCorpusDataset):
    """Amazon Review Polarity/Full (``train.csv``/``test.csv``): columns label, title, content.

    Arguments as :class:`AGNewsDataset`.
    """

    _columns = ("label", "title", "content")


class DBpediaDataset(_CSVCorpusDataset):
    """DBpedia (``train.csv``/``test.csv``): columns class, title, content (strings).

    Arguments as :class:`AGNewsDataset`.
    """

    _columns = ("class", "title", "content")


class SogouNewsDataset(_ShuffleBeforeShards, _CSVCorpusDataset):
    """Sogou News (``train.csv``/``test.csv``): columns index, title, content (strings).

    Arguments as :class:`AGNewsDataset` (MindSpore reads train.csv before test.csv here).
    """

    _columns = ("index", "title", "content")
    _all_order = ("train", "test")


class YahooAnswersDataset(_CSVCorpusDataset):
    """Yahoo! Answers (``train.csv``/``test.csv``): columns class, title, content, answer.

    Arguments as :class:`AGNewsDataset`.
    """

    _columns = ("class", "title", "content", "answer")


class YelpReviewDataset(_ShuffleBeforeShards, _CSVCorpusDataset):
    """Yelp Review Polarity/Full (``train.csv``/``test.csv``): columns label, text (strings).

    Arguments as :class:`AGNewsDataset` (MindSpore reads train.csv before test.csv here).
    """

    _columns = ("label", "text")
    _all_order = ("train", "test")


class _LineCorpusDataset(_CorpusDataset):
    """One string row per line (``_keep_empty``: whether empty lines are rows too)."""

    _columns = ("text",)
    _keep_empty = False

    def _parse(self, path):
        return [(string(line),) for line in read_lines(type(self).__name__, path, self._keep_empty)]


class PennTreebankDataset(_LineCorpusDataset):
    """Penn Treebank (``ptb.{train,valid,test}.txt``): one row per non-empty line, column text.

    Args:
        dataset_dir (str): The folder holding the ptb.*.txt files.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.PennTreebankDataset("/path/to/ptb", usage="valid", shuffle=False)
    """

    _files = {"train": ["ptb.train.txt"], "valid": ["ptb.valid.txt"], "test": ["ptb.test.txt"]}
    _all_order = ("test", "train", "valid")


class WikiTextDataset(_LineCorpusDataset):
    """WikiText-2/103 (``wiki.{train,valid,test}.tokens``): one row per non-empty line.

    Arguments as :class:`PennTreebankDataset`.
    """

    _files = {"train": ["wiki.train.tokens"], "valid": ["wiki.valid.tokens"],
              "test": ["wiki.test.tokens"]}
    _all_order = ("test", "train", "valid")


class EnWik9Dataset(_LineCorpusDataset):
    """EnWik9 (the file ``enwik9``): one row per line, empty lines included, column text.

    Args:
        dataset_dir (str): The folder holding the file enwik9.
        num_samples, num_parallel_workers, shuffle (default True), num_shards, shard_id, cache:
            as every file source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.EnWik9Dataset("/path/to/enwik9_dir", shuffle=False)
    """

    _files = {"all": ["enwik9"]}
    _all_order = ("all",)
    _keep_empty = True

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, "all", num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)


class _TaggedCorpusDataset(_CorpusDataset):
    """One sentence per row: lines of ``word<sep>tag<sep>tag`` up to an empty line; each column
    is the 1-d string array of that field over the sentence's words (as in MindSpore, a last
    sentence that no empty line closes is not read)."""

    _separator = None  # None: any whitespace

    def _parse(self, path):
        rows, sentence = [], []
        for number, line in enumerate(read_lines(type(self).__name__, path), 1):
            if not line.strip():
                if sentence:
                    rows.append(self._sentence(sentence))
                sentence = []
                continue
            fields = line.split(self._separator)
            if len(fields) != len(self._columns):
                raise RuntimeError(f"{type(self).__name__}: line {number} of {path} has "
                                   f"{len(fields)} fields where the dataset has "
                                   f"{len(self._columns)} ({list(self._columns)}).")
            sentence.append(fields)
        # MindSpore ends a sentence at an empty line only: words after the last one are no row
        return rows

    @staticmethod
    def _sentence(words):
        return tuple(np.array(column, dtype=np.str_) for column in zip(*words))


class CoNLL2000Dataset(_ShuffleBeforeShards, _TaggedCorpusDataset):
    """CoNLL-2000 chunking (``train.txt``/``test.txt``): columns word, pos_tag, chunk_tag, each a
    1-d string array over a sentence.

    Args:
        dataset_dir (str): The folder holding train.txt and test.txt.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.CoNLL2000Dataset("/path/to/conll2000", usage="train", shuffle=False)
    """

    _files = {"train": ["train.txt"], "test": ["test.txt"]}
    _all_order = ("test", "train")
    _columns = ("word", "pos_tag", "chunk_tag")


class UDPOSDataset(_ShuffleBeforeShards, _TaggedCorpusDataset):
    """UDPOS (``en-ud-tag.v2.{train,dev,test}.txt``, tab separated): columns word, universal,
    stanford, each a 1-d string array over a sentence.

    Args:
        dataset_dir (str): The folder holding the en-ud-tag.v2.*.txt files.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.UDPOSDataset("/path/to/udpos", usage="valid", shuffle=False)
    """

    _files = {"train": ["en-ud-tag.v2.train.txt"], "valid": ["en-ud-tag.v2.dev.txt"],
              "test": ["en-ud-tag.v2.test.txt"]}
    _all_order = ("valid", "test", "train")
    _columns = ("word", "universal", "stanford")
    _separator = "\t"


class SST2Dataset(_CorpusDataset):
    """SST-2 (``train.tsv``/``dev.tsv``/``test.tsv`` with a header line): columns sentence, label
    (strings); usage 'test' has the column sentence only.

    Args:
        dataset_dir (str): The folder holding the .tsv files.
        usage (str, optional): 'train', 'dev' or 'test' (default None: 'train').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SST2Dataset("/path/to/sst2", usage="dev", shuffle=False)
    """

    _files = {"train": ["train.tsv"], "dev": ["dev.tsv"], "test": ["test.tsv"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        usage = check_choice(where, "usage", usage, ["train", "dev", "test"], "train")
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _column_names(self):
        return ["sentence"] if self.usage == "test" else ["sentence", "label"]

    def _parse(self, path):
        lines = read_lines(type(self).__name__, path, keep_empty=False)[1:]
        rows = []
        for line in lines:
            fields = line.split("\t")
            # test.tsv is "index<TAB>sentence"; train/dev are "sentence<TAB>label"
            row = (fields[1],) if self.usage == "test" else (fields[0], fields[-1])
            rows.append(tuple(string(field) for field in row))
        return rows


class IMDBDataset(TableDataset):
    """IMDB reviews (``{train,test}/{pos,neg}/*.txt``): columns text (string) and label (int32:
    1 pos, 0 neg).

    Args:
        dataset_dir (str): The folder holding train/ and test/.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.IMDBDataset("/path/to/imdb", usage="train", shuffle=False)
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage, ["train", "test", "all"], "all")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _column_names(self):
        return ["text", "label"]

    def _load_table(self):
        texts, labels = [], []
        for split in (("train", "test") if self.usage == "all" else (self.usage,)):
            for polarity, label in (("pos", 1), ("neg", 0)):
                folder = os.path.join(self.dataset_dir, split, polarity)
                if not os.path.isdir(folder):
                    continue
                for name in sorted(os.listdir(folder)):
                    if name.endswith(".txt"):
                        texts.append(os.path.join(folder, name))
                        labels.append(np.array(label, dtype=np.int32))
        return [texts, labels]

    def _cell(self, column, value):
        if column == 0:
            with read_errors_name(type(self).__name__, value), \
                    open(value, encoding="utf-8") as handle:
                return string(handle.read())
        return value


# The CLUE tasks: per (task, usage) the JSON keys read, as (key, kind) with kind 's' a string,
# 'u' a uint32 and 'l' a list of strings; columns come out sorted by name, as MindSpore gives them.
_CLUE_PAIR = {"train": "label:s sentence1:s sentence2:s", "eval": "label:s sentence1:s sentence2:s",
              "test": "id:u sentence1:s sentence2:s"}
_CLUE_WSC = "idx:u span1_index:u span1_text:s span2_index:u span2_text:s text:s"
_CLUE_KEYS = {
    "AFQMC": _CLUE_PAIR,
    "CMNLI": _CLUE_PAIR,
    "TNEWS": {"train": "keywords:s label:s label_desc:s sentence:s",
              "eval": "keywords:s label:s label_desc:s sentence:s",
              "test": "id:u keywords:s sentence:s"},
    "IFLYTEK": {"train": "label:s label_des:s sentence:s", "eval": "label:s label_des:s sentence:s",
                "test": "id:u sentence:s"},
    "WSC": {"train": _CLUE_WSC + " label:s", "eval": _CLUE_WSC + " label:s", "test": _CLUE_WSC},
    "CSL": {"train": "abst:s id:u keyword:l label:s", "eval": "abst:s id:u keyword:l label:s",
            "test": "abst:s id:u keyword:l"},
}


class CLUEDataset(FileCorpusDataset):
    """CLUE benchmark JSON-lines files: the columns of ``task`` and ``usage`` (sorted by name;
    ids and WSC indices uint32, CSL keywords a 1-d string array, the rest strings).

    Args:
        dataset_files (Union[str, list[str]]): A file, glob pattern or list of files (sorted).
        task (str, optional): 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL' (default
            'AFQMC').
        usage (str, optional): 'train', 'test' or 'eval' (default 'train').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.CLUEDataset("/path/to/afqmc/train.json", task="AFQMC", usage="train")
    """

    def __init__(self, dataset_files, task="AFQMC", usage="train", num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, cache=None):

        where = type(self).__name__
        files = expand_files(where, dataset_files)
        self.dataset_files = sorted(files) if not isinstance(dataset_files, str) else files
        self.task = check_choice(where, "task", task, list(_CLUE_KEYS))
        self.usage = check_choice(where, "usage", usage, ["train", "test", "eval"])
        self._keys = sorted(field.split(":") for field in _CLUE_KEYS[self.task][self.usage].split())
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _column_names(self):
        return [key for key, _ in self._keys]

    def _file_rows(self):

        where = type(self).__name__
        per_file = []
        for path in self.dataset_files:
            rows = []
            for number, line in enumerate(read_lines(where, path), 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as error:
                    raise RuntimeError(f"{where}: line {number} of {path} is not JSON: "
                                       f"{error}.") from None
                record.update(record.pop("target", {}))  # WSC nests its spans under 'target'
                missing = [key for key, _ in self._keys if key not in record]
                if missing:
                    raise RuntimeError(f"{where}: line {number} of {path} lacks {missing}, which "
                                       f"task {self.task!r} usage {self.usage!r} reads; check "
                                       "task and usage against the file.")
                rows.append(tuple(_clue_value(record[key], kind) for key, kind in self._keys))
            per_file.append(rows)
        return per_file


def _clue_value(value, kind):
    if kind == "u":
        return np.array(int(value), dtype=np.uint32)
    if kind == "l":
        return np.array([str(v) for v in value], dtype=np.str_)
    return string(str(value))


class SQuADDataset(_CorpusDataset):
    """SQuAD 1.1/2.0 (``{train,dev}-v1.1.json`` or ``-v2.0.json``): one row per question,
    columns context, question (strings), text (1-d string array of its answers) and answer_start
    (1-d uint32; an unanswerable 2.0 question gives [''] and [2**32 - 1]).

    Args:
        dataset_dir (str): The folder holding the JSON files.
        usage (str, optional): 'train', 'dev' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SQuADDataset("/path/to/SQuAD2", usage="dev", shuffle=False)
    """

    _files = {"train": ["train-v1.1.json", "train-v2.0.json"],
              "dev": ["dev-v1.1.json", "dev-v2.0.json"]}
    _all_order = ("dev", "train")
    _columns = ("context", "question", "text", "answer_start")

    def _parse(self, path):

        with read_errors_name(type(self).__name__, path), open(path, encoding="utf-8") as handle:
            try:
                document = json.load(handle)
            except ValueError as error:
                raise RuntimeError(f"{type(self).__name__}: {path} is not JSON: {error}.") from None
        rows = []
        for article in document.get("data", []):
            for paragraph in article.get("paragraphs", []):
                for question in paragraph.get("qas", []):
                    answers = question.get("answers") or [{"text": "", "answer_start": -1}]
                    rows.append((string(paragraph["context"]), string(question["question"]),
                                 np.array([a["text"] for a in answers], dtype=np.str_),
                                 np.array([a["answer_start"] for a in answers],
                                          dtype=np.int64).astype(np.uint32)))
        return rows

"""Translation corpus loaders: Multi30k and the IWSLT 2016/2017 TED talks, each reading the on-disk
layout MindSpore documents for it (one 0-d ``str`` array per sentence and language)."""
import os
import xml.etree.ElementTree as ElementTree

from sporax.dataset.engine.datasets_text_corpora import _CorpusDataset
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.table_sources import check_choice, read_lines, string


class _TranslationCorpusDataset(_CorpusDataset):
    """Sentence-aligned pairs: columns text (the source language) and translation."""

    _columns = ("text", "translation")

    def _pair(self, source_path, target_path):
        where = type(self).__name__
        sources = self._sentences(source_path)
        targets = self._sentences(target_path)
        if len(sources) != len(targets):
            raise RuntimeError(f"{where}: {source_path} has {len(sources)} sentences but "
                               f"{target_path} has {len(targets)}; they must align line by line.")
        return [(string(s), string(t)) for s, t in zip(sources, targets)]

    def _sentences(self, path):
        return read_lines(type(self).__name__, path, False)

    def _file_rows(self):
        return [self._pair(*pair) for pair in self._pairs()]


class Multi30kDataset(_TranslationCorpusDataset):
    """Multi30k (``training/train.{en,de}``, ``validation/val.*``, ``mmt16_task1_test/test.*``):
    columns text and translation (strings) in ``language_pair`` order.

    Args:
        dataset_dir (str): The folder holding the three split folders.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        language_pair (Sequence[str, str], optional): ['en', 'de'] or ['de', 'en'] (default None:
            ['en', 'de']).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Multi30kDataset("/path/to/multi30k", usage="train",
        ...                              language_pair=["de", "en"])
    """

    _files = {"train": [("training", "train")], "valid": [("validation", "val")],
              "test": [("mmt16_task1_test", "test")]}
    _all_order = ("test", "train", "valid")

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None,
                 cache=None):
        pair = ["en", "de"] if language_pair is None else list(language_pair)
        if pair not in (["en", "de"], ["de", "en"]):
            raise ValueError(f"Multi30kDataset: language_pair must be ['en', 'de'] or "
                             f"['de', 'en'], but got {language_pair!r}.")
        self.language_pair = pair
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers,
                         Shuffle.GLOBAL if shuffle is None else shuffle, num_shards, shard_id,
                         cache)

    def _pairs(self):
        usages = self._all_order if self.usage == "all" else (self.usage,)
        source, target = self.language_pair
        pairs = []
        for usage in usages:
            for folder, stem in self._files[usage]:
                base = os.path.join(self.dataset_dir, folder, stem)
                if os.path.isfile(f"{base}.{source}") and os.path.isfile(f"{base}.{target}"):
                    pairs.append((f"{base}.{source}", f"{base}.{target}"))
        return pairs


class _IWSLTDataset(_TranslationCorpusDataset):
    """IWSLT TED talks: ``train.tags.<src>-<tgt>.<lang>`` (tag lines skipped) and
    ``IWSLT<yy>.TED.<set>.<src>-<tgt>.<lang>.xml`` (the ``<seg>`` texts)."""

    _year = ""
    _pairs_allowed = ()

    def _check_pair(self, language_pair):
        pair = ("de", "en") if language_pair is None else tuple(language_pair)
        if pair not in self._pairs_allowed:
            raise ValueError(f"{type(self).__name__}: language_pair must be one of "
                             f"{list(self._pairs_allowed)}, but got {language_pair!r}.")
        return pair

    def _sentences(self, path):
        where = type(self).__name__
        if not path.endswith(".xml"):
            return [line.strip() for line in read_lines(where, path, False)
                    if not line.lstrip().startswith("<")]

        try:
            tree = ElementTree.parse(path)
        except (ElementTree.ParseError, OSError) as error:
            raise RuntimeError(f"{where}: cannot read {path} as IWSLT XML: {error}.") from None
        return [(seg.text or "").strip() for seg in tree.iter("seg")]

    def _split_files(self, folder, name):
        source, target = self.language_pair
        if name == "train":
            stem = os.path.join(folder, f"train.tags.{source}-{target}")
            return f"{stem}.{source}", f"{stem}.{target}"
        stem = os.path.join(folder, f"IWSLT{self._year}.TED.{name}.{source}-{target}")
        return f"{stem}.{source}.xml", f"{stem}.{target}.xml"

    def _pairs(self):
        names = {"train": ["train"], "valid": [self.valid_set], "test": [self.test_set]}
        names["all"] = names["train"] + names["valid"] + names["test"]
        pairs = []
        for name in names[self.usage]:
            source_path, target_path = self._split_files(self._folder(), name)
            if not (os.path.isfile(source_path) and os.path.isfile(target_path)):
                raise RuntimeError(f"{type(self).__name__}: {source_path} or {target_path} is "
                                   f"missing; usage {self.usage!r} reads them.")
            pairs.append((source_path, target_path))
        return pairs


_TED_SETS = ("dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014")


class IWSLT2016Dataset(_IWSLTDataset):
    """IWSLT 2016 (``texts/<src>/<tgt>/<src>-<tgt>/`` train and XML dev/test files): columns
    text and translation (strings).

    Args:
        dataset_dir (str): The folder holding texts/.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        language_pair (Sequence[str, str], optional): ('de', 'en') by default; English paired
            with 'fr', 'de', 'cs' or 'ar' either way.
        valid_set (str, optional): The TED set read as 'valid' (default None: 'tst2013').
        test_set (str, optional): The TED set read as 'test' (default None: 'tst2014').
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.IWSLT2016Dataset("/path/to/iwslt2016", usage="train")
    """

    _year = "16"
    _pairs_allowed = tuple([("en", x) for x in ("fr", "de", "cs", "ar")] +
                           [(x, "en") for x in ("fr", "de", "cs", "ar")])
    _files = {"train": [], "valid": [], "test": []}

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None,
                 test_set=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        where = type(self).__name__
        self.language_pair = self._check_pair(language_pair)
        self.valid_set = check_choice(where, "valid_set", valid_set, _TED_SETS, "tst2013")
        self.test_set = check_choice(where, "test_set", test_set, _TED_SETS, "tst2014")
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _folder(self):
        source, target = self.language_pair
        return os.path.join(self.dataset_dir, "texts", source, target, f"{source}-{target}")


class IWSLT2017Dataset(_IWSLTDataset):
    """IWSLT 2017 multilingual (``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/``): columns
    text and translation (strings); valid is dev2010, test is tst2010.

    Args:
        dataset_dir (str): The folder holding texts/.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        language_pair (Sequence[str, str], optional): two of 'en', 'nl', 'de', 'it', 'ro'
            (default None: ('de', 'en')).
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as every file
            source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.IWSLT2017Dataset("/path/to/iwslt2017", usage="test",
        ...                               language_pair=("it", "ro"))
    """

    _year = "17"
    _pairs_allowed = tuple((a, b) for a in ("en", "nl", "de", "it", "ro")
                           for b in ("en", "nl", "de", "it", "ro") if a != b)
    _files = {"train": [], "valid": [], "test": []}

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        self.language_pair = self._check_pair(language_pair)
        self.valid_set, self.test_set = "dev2010", "tst2010"
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _folder(self):
        return os.path.join(self.dataset_dir, "texts", "DeEnItNlRo", "DeEnItNlRo",
                            "DeEnItNlRo-DeEnItNlRo")

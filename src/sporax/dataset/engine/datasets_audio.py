"""Speech and music corpus loaders (YesNo, SpeechCommands, LJSpeech, GTZAN, CMU Arctic,
LibriTTS): PCM WAV files with their text metadata, in the layouts MindSpore documents.

``waveform`` is float32 of shape (channels, frames) scaled to [-1, 1), as MindSpore gives it.
"""
import os

import numpy as np

from sporax.dataset.engine.table_sources import (
    TableDataset,
    check_choice,
    check_dir,
    read_lines,
    read_wav,
    sorted_dirs,
    sorted_files,
    string,
)


class _WaveDataset(TableDataset):
    """Rows whose first stored cell is a WAV path; it becomes (waveform, sample_rate)."""

    _rate_dtype = np.uint32

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(type(self).__name__, dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _read(self, indices):
        table = self._loaded()
        waves, rates = [], []
        for i in indices:
            waveform, rate = read_wav(type(self).__name__, table[0][int(i)])
            waves.append(waveform)
            rates.append(np.array(rate, dtype=self._rate_dtype))
        return [waves, rates] + [[column[int(i)] for i in indices] for column in table[1:]]

    def _labels(self):
        return None


class YesNoDataset(_WaveDataset):
    """YesNo (``*.wav`` named by their eight 0/1 labels): columns waveform (float32),
    sample_rate (int32), label (int32 vector of the eight words).

    Args:
        dataset_dir (str): The folder holding the .wav files.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.YesNoDataset("/path/to/waves_yesno", shuffle=False)
    """

    _rate_dtype = np.int32

    def _column_names(self):
        return ["waveform", "sample_rate", "label"]

    def _load_table(self):
        paths, labels = [], []
        for name in sorted_files(self.dataset_dir, ".wav"):
            words = name[:-4].split("_")
            if not all(word in ("0", "1") for word in words):
                continue
            paths.append(os.path.join(self.dataset_dir, name))
            labels.append(np.array([int(word) for word in words], dtype=np.int32))
        return [paths, labels]


class SpeechCommandsDataset(_WaveDataset):
    """Speech Commands (``<word>/<speaker>_nohash_<n>.wav``; ``testing_list.txt`` and
    ``validation_list.txt`` name the test and valid files): columns waveform, sample_rate (int32),
    label, speaker_id (strings), utterance_number (int32).

    Args:
        dataset_dir (str): The unpacked dataset folder.
        usage (str, optional): 'train', 'test', 'valid' or 'all' (default None: all); 'train' is
            every file neither list names.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SpeechCommandsDataset("/path/to/speech_commands", usage="test")
    """

    _rate_dtype = np.int32

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_choice(type(self).__name__, "usage", usage,
                                  ["train", "test", "valid", "all"], "all")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    def _column_names(self):
        return ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]

    def _listed(self, name):
        path = os.path.join(self.dataset_dir, name)
        if not os.path.isfile(path):
            return set()
        return {line.strip() for line in read_lines(type(self).__name__, path, False)}

    def _load_table(self):
        test, valid = self._listed("testing_list.txt"), self._listed("validation_list.txt")
        columns = [[], [], [], []]
        for word in sorted_dirs(self.dataset_dir):
            if word.startswith("_"):  # _background_noise_ holds no labelled utterance
                continue
            for name in sorted_files(os.path.join(self.dataset_dir, word), ".wav"):
                relative = f"{word}/{name}"
                split = "test" if relative in test else "valid" if relative in valid else "train"
                if self.usage not in ("all", split):
                    continue
                speaker, _, number = name[:-4].partition("_nohash_")
                columns[0].append(os.path.join(self.dataset_dir, word, name))
                columns[1].append(string(word))
                columns[2].append(string(speaker))
                columns[3].append(np.array(int(number or 0), dtype=np.int32))
        return columns


class LJSpeechDataset(_WaveDataset):
    """LJ Speech (``metadata.csv`` of ``id|transcription|normalized`` and ``wavs/<id>.wav``):
    columns waveform, sample_rate (int32), transcription, normalized_transcription.

    Args:
        dataset_dir (str): The LJSpeech-1.1 folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.LJSpeechDataset("/path/to/LJSpeech-1.1", shuffle=False)
    """

    _rate_dtype = np.int32

    def _column_names(self):
        return ["waveform", "sample_rate", "transcription", "normalized_transcription"]

    def _load_table(self):
        where = type(self).__name__
        metadata = os.path.join(self.dataset_dir, "metadata.csv")
        if not os.path.isfile(metadata):
            raise RuntimeError(f"{where}: {metadata} is missing; dataset_dir must be the "
                               "LJSpeech-1.1 folder holding metadata.csv and wavs/.")
        columns = [[], [], []]
        for number, line in enumerate(read_lines(where, metadata, False), 1):
            fields = line.split("|")
            if len(fields) != 3:
                raise RuntimeError(f"{where}: line {number} of {metadata} has {len(fields)} "
                                   "'|'-separated fields where LJSpeech has 3 (id, "
                                   "transcription, normalized transcription).")
            columns[0].append(os.path.join(self.dataset_dir, "wavs", fields[0] + ".wav"))
            columns[1].append(string(fields[1]))
            columns[2].append(string(fields[2]))
        return columns


GTZAN_GENRES = ("blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop",
                "reggae", "rock")


class GTZANDataset(_WaveDataset):
    """GTZAN genres (``<genre>/<genre>.NNNNN.wav``): columns waveform, sample_rate (uint32),
    label (the genre).

    Args:
        dataset_dir (str): The folder holding one folder per genre.
        usage (str, optional): 'all' (default None: all). The 'train'/'valid'/'test' splits are
            the fixed file lists of the fault-filtered GTZAN split, which sporax does not ship:
            they raise NotImplementedError.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.GTZANDataset("/path/to/gtzan", shuffle=False)
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.usage = check_choice(where, "usage", usage, ["train", "valid", "test", "all"], "all")
        if self.usage != "all":
            raise NotImplementedError(
                f"{where}(usage={self.usage!r}): the train/valid/test splits are MindSpore's "
                "built-in lists of the fault-filtered GTZAN split, which sporax does not ship. "
                "Use usage='all' and split with Dataset.split or a SubsetSampler.")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    def _column_names(self):
        return ["waveform", "sample_rate", "label"]

    def _load_table(self):
        paths, labels = [], []
        for genre in GTZAN_GENRES:
            for name in sorted_files(os.path.join(self.dataset_dir, genre), ".wav"):
                paths.append(os.path.join(self.dataset_dir, genre, name))
                labels.append(string(genre))
        return [paths, labels]


class CMUArcticDataset(_WaveDataset):
    """CMU Arctic (``cmu_us_<name>_arctic/wav/*.wav`` and ``etc/txt.done.data``): columns
    waveform, sample_rate (uint32), transcript, utterance_id.

    Args:
        dataset_dir (str): The folder holding the cmu_us_*_arctic folders.
        name (str, optional): The speaker, e.g. 'aew', 'bdl', 'slt' (default None: 'aew').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.CMUArcticDataset("/path/to/cmu_arctic", name="slt")
    """

    SPEAKERS = ("aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk",
                "ksp", "ljm", "lnh", "rms", "rxr", "slp", "slt")

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.name = check_choice(type(self).__name__, "name", name, self.SPEAKERS, "aew")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    def _column_names(self):
        return ["waveform", "sample_rate", "transcript", "utterance_id"]

    def _load_table(self):
        where = type(self).__name__
        base = os.path.join(self.dataset_dir, f"cmu_us_{self.name}_arctic")
        index = os.path.join(base, "etc", "txt.done.data")
        if not os.path.isfile(index):
            raise RuntimeError(f"{where}: {index} is missing; dataset_dir must hold "
                               f"cmu_us_{self.name}_arctic/etc/txt.done.data.")
        columns = [[], [], []]
        for line in read_lines(where, index, False):
            body = line.strip().strip("()").strip()
            identifier, _, text = body.partition(" ")
            text = text.strip()
            if text.startswith('"') and text.endswith('"'):
                text = text[1:-1]
            columns[0].append(os.path.join(base, "wav", identifier + ".wav"))
            columns[1].append(string(text))
            columns[2].append(string(identifier.split("_", 1)[-1]))
        return columns


class LibriTTSDataset(_WaveDataset):
    """LibriTTS (``<usage>/<speaker>/<chapter>/<speaker>_<chapter>.trans.tsv`` and the .wav
    files it names): columns waveform, sample_rate, original_text, normalized_text, speaker_id,
    chapter_id (uint32), utterance_id.

    Args:
        dataset_dir (str): The folder holding the usage folders.
        usage (str, optional): 'dev-clean', 'dev-other', 'test-clean', 'test-other',
            'train-clean-100', 'train-clean-360', 'train-other-500' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.LibriTTSDataset("/path/to/libritts", usage="dev-clean")
    """

    USAGES = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100",
              "train-clean-360", "train-other-500")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_choice(type(self).__name__, "usage", usage,
                                  list(self.USAGES) + ["all"], "all")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    def _column_names(self):
        return ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id",
                "chapter_id", "utterance_id"]

    def _load_table(self):
        where = type(self).__name__
        columns = [[] for _ in range(6)]
        for usage in (self.USAGES if self.usage == "all" else (self.usage,)):
            root = os.path.join(self.dataset_dir, usage)
            for speaker in sorted_dirs(root):
                for chapter in sorted_dirs(os.path.join(root, speaker)):
                    folder = os.path.join(root, speaker, chapter)
                    index = os.path.join(folder, f"{speaker}_{chapter}.trans.tsv")
                    if not os.path.isfile(index):
                        continue
                    for line in read_lines(where, index, False):
                        fields = line.split("\t")
                        if len(fields) != 3:
                            raise RuntimeError(f"{where}: {index} has a line with "
                                               f"{len(fields)} tab-separated fields where "
                                               f"LibriTTS has 3: {line!r}.")
                        columns[0].append(os.path.join(folder, fields[0] + ".wav"))
                        columns[1].append(string(fields[1]))
                        columns[2].append(string(fields[2]))
                        columns[3].append(np.array(int(speaker), dtype=np.uint32))
                        columns[4].append(np.array(int(chapter), dtype=np.uint32))
                        columns[5].append(string(fields[0]))
        return columns


def read_sphere(where, path):
    """A NIST SPHERE file of PCM samples as (float32 (channels, frames), sample rate)."""
    with open(path, "rb") as handle:
        data = handle.read()
    lines = data[:1024].split(b"\n")
    if not lines or lines[0].strip() != b"NIST_1A":
        raise RuntimeError(f"{where}: {path} is not a NIST SPHERE file (no NIST_1A header).")
    header_size = int(lines[1])
    fields = {}
    for line in data[:header_size].split(b"\n")[2:]:
        parts = line.decode("ascii", "replace").split(None, 2)
        if len(parts) == 3:
            fields[parts[0]] = parts[2]
    coding = fields.get("sample_coding", "pcm")
    if coding != "pcm":
        raise NotImplementedError(f"{where}: {path} is SPHERE-coded {coding!r}; sporax reads "
                                  "PCM SPHERE files only (convert with sph2pipe).")
    width = int(fields.get("sample_n_bytes", 2))
    channels = int(fields.get("channel_count", 1))
    order = "<" if fields.get("sample_byte_format", "01") in ("01", "1") else ">"
    dtype = {1: "i1", 2: "i2", 4: "i4"}[width]
    samples = np.frombuffer(data[header_size:], order + dtype)
    samples = samples[:len(samples) - len(samples) % channels].astype(np.float32)
    scale = float(2 ** (8 * width - 1) - 1)
    return np.ascontiguousarray((samples / scale).reshape(-1, channels).T), \
        int(fields.get("sample_rate", 16000))


class TedliumDataset(_WaveDataset):
    """TED-LIUM releases 1-3 (``<usage>/sph/<talk>.sph`` PCM SPHERE audio and
    ``<usage>/stm/<talk>.stm`` segments; release 3 under ``data/``): one row per STM segment,
    columns waveform (the segment's samples), sample_rate (int32), transcript, talk_id,
    speaker_id, identifier (strings).

    Args:
        dataset_dir (str): The release folder (TEDLIUM_release1, TEDLIUM_release2,
            TEDLIUM_release-3).
        release (str): 'release1', 'release2' or 'release3'.
        usage (str, optional): 'train', 'test', 'dev' or 'all' (release3: 'all' only; default
            None: 'all').
        extensions (str, optional): '.sph' (the only one; default None: '.sph').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.TedliumDataset("/path/to/TEDLIUM_release1", "release1", usage="dev")
    """

    _rate_dtype = np.int32

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        where = type(self).__name__
        self.release = check_choice(where, "release", release,
                                    ["release1", "release2", "release3"])
        allowed = ["all"] if self.release == "release3" else ["train", "test", "dev", "all"]
        self.usage = check_choice(where, "usage", usage, allowed, "all")
        self.extensions = check_choice(where, "extensions", extensions, [".sph"], ".sph")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)
        self._audio = {}

    def _column_names(self):
        return ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"]

    def _load_table(self):
        where = type(self).__name__
        if self.release == "release3":
            folders = [os.path.join(self.dataset_dir, "data")]
        else:
            usages = ("train", "test", "dev") if self.usage == "all" else (self.usage,)
            folders = [os.path.join(self.dataset_dir, usage) for usage in usages]
        columns = [[] for _ in range(5)]
        for folder in folders:
            for name in sorted_files(os.path.join(folder, "stm"), ".stm"):
                talk = name[:-4]
                audio = os.path.join(folder, "sph", talk + self.extensions)
                for line in read_lines(where, os.path.join(folder, "stm", name), False):
                    fields = line.split(" ", 6)
                    if len(fields) < 6:
                        raise RuntimeError(f"{where}: {name} has a segment line with "
                                           f"{len(fields)} fields where STM has at least 6.")
                    columns[0].append((audio, float(fields[3]), float(fields[4])))
                    columns[1].append(string(fields[6] if len(fields) > 6 else ""))
                    columns[2].append(string(fields[0]))
                    columns[3].append(string(fields[2]))
                    columns[4].append(string(fields[5]))
        return columns

    def _read(self, indices):
        table = self._loaded()
        waves, rates = [], []
        for i in indices:
            audio, start, end = table[0][int(i)]
            if audio not in self._audio:
                self._audio[audio] = read_sphere(type(self).__name__, audio)
            waveform, rate = self._audio[audio]
            waves.append(np.ascontiguousarray(waveform[:, int(start * rate):int(end * rate)]))
            rates.append(np.array(rate, dtype=np.int32))
        return [waves, rates] + [[column[int(i)] for i in indices] for column in table[1:]]

"""Tiny on-disk copies of the layouts MindSpore's dataset loaders read.

Each case builds its files under a fresh folder and names the loader and its arguments; MindSpore
2.10 read every case once (``tests/fixtures/dataset/record_source_layouts_oracle.py`` wrote the
rows into ``tests/fixtures/dataset/source_layouts_oracle.json``) and ``test_source_layouts.py``
reads the same files with sporax. Plain Python, NumPy and Pillow only, so both interpreters run it.
"""
import io
import os
import struct
import wave

import numpy as np

CASES = {}


def case(name, loader):
    """Register ``build(root) -> kwargs`` as the case ``name`` read by the loader ``loader``."""
    def register(build):
        CASES[name] = (loader, build)
        return build
    return register


def write(path, data, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as f:
        f.write(data)


def write_wav(path, samples, rate=16000):
    """16-bit mono PCM."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(path, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def wav_samples(seed, length=6):
    return np.random.default_rng(seed).integers(-32768, 32767, length).astype(np.int16)


def write_image(path, seed, size=(3, 4), mode="RGB", fmt=None):
    from PIL import Image
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shape = (size[0], size[1], 3) if mode == "RGB" else size
    pixels = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    Image.fromarray(pixels, mode).save(path, format=fmt or ("PNG" if path.endswith(".png") else
                                                            "BMP" if path.endswith(".bmp") else "JPEG"))


def write_idx(path, array):
    codes = {np.dtype(np.uint8): 0x08, np.dtype(">i4"): 0x0C}
    array = np.asarray(array)
    header = bytes([0, 0, codes[array.dtype], array.ndim]) + struct.pack(">" + "I" * array.ndim,
                                                                          *array.shape)
    write(path, header + array.tobytes(), "wb")


# ------------------------------------------------------------------ CSV news/review corpora
_CSV_ROWS = {
    "train": ['"3","Wall St. Bears","Short-sellers, Wall Street\'s ""dwindling"" band"',
              '"4","Carlyle","Private investment firm"',
              '"1","Oil","Soaring crude prices"'],
    "test": ['"2","Fears for T N pension","Unions representing workers"',
             '"3","Race","A private team"'],
}


def _csv_corpus(root, width):
    for split, lines in _CSV_ROWS.items():
        rows = []
        for line in lines:
            fields = line.split('","')
            while len(fields) < width:
                fields.insert(-1, f"extra {len(fields)}")
            rows.append('","'.join(fields[:width - 1] + [fields[-1]]))
        write(os.path.join(root, f"{split}.csv"), "\n".join(rows) + "\n")


for _loader, _width in (("AGNewsDataset", 3), ("AmazonReviewDataset", 3), ("DBpediaDataset", 3),
                        ("SogouNewsDataset", 3), ("YahooAnswersDataset", 4),
                        ("YelpReviewDataset", 2)):
    for _usage in ("train", "test", "all"):
        def _build(root, width=_width, usage=_usage):
            _csv_corpus(root, width)
            return {"usage": usage, "shuffle": False}
        case(f"{_loader}_{_usage}", _loader)(_build)


# ------------------------------------------------------------------ line corpora
@case("PennTreebankDataset_all", "PennTreebankDataset")
def _ptb(root):
    for split in ("train", "valid", "test"):
        write(os.path.join(root, f"ptb.{split}.txt"),
              f" {split} aer banknote <unk>\n\n no it was n't black monday \n")
    return {"usage": "all", "shuffle": False}


@case("PennTreebankDataset_valid", "PennTreebankDataset")
def _ptb_valid(root):
    _ptb(root)
    return {"usage": "valid", "shuffle": False}


@case("WikiTextDataset_all", "WikiTextDataset")
def _wikitext(root):
    for split in ("train", "valid", "test"):
        write(os.path.join(root, f"wiki.{split}.tokens"),
              f" \n = Valkyria Chronicles {split} = \n \n Senjō no Valkyria 3 : <unk> \n")
    return {"usage": "all", "shuffle": False}


@case("WikiTextDataset_test", "WikiTextDataset")
def _wikitext_test(root):
    _wikitext(root)
    return {"usage": "test", "shuffle": False}


@case("EnWik9Dataset", "EnWik9Dataset")
def _enwik9(root):
    write(os.path.join(root, "enwik9"), "<mediawiki>\n  <siteinfo>\n\n    <sitename>Wikipedia\n")
    return {"shuffle": False}


# ------------------------------------------------------------------ token-per-line corpora
@case("CoNLL2000Dataset_all", "CoNLL2000Dataset")
def _conll2000(root):
    write(os.path.join(root, "train.txt"),
          "Confidence NN B-NP\nin IN B-PP\n\nthe DT B-NP\npound NN I-NP\n\n")
    write(os.path.join(root, "test.txt"), "Rockwell NNP B-NP\nsaid VBD B-VP\n\nIt PRP B-NP\n")
    return {"usage": "all", "shuffle": False}


@case("UDPOSDataset_all", "UDPOSDataset")
def _udpos(root):
    for split, words in (("train", "Al"), ("dev", "From"), ("test", "What")):
        write(os.path.join(root, f"en-ud-tag.v2.{split}.txt"),
              f"{words}\tPROPN\tNNP\n-\tPUNCT\tHYPH\n\nZaman\tPROPN\tNNP\n")
    return {"usage": "all", "shuffle": False}


@case("UDPOSDataset_valid", "UDPOSDataset")
def _udpos_valid(root):
    _udpos(root)
    return {"usage": "valid", "shuffle": False}


# ------------------------------------------------------------------ other text corpora
@case("IMDBDataset_all", "IMDBDataset")
def _imdb(root):
    for split in ("train", "test"):
        for polarity, texts in (("pos", ["good film", "great"]), ("neg", ["bad", "awful <br />"])):
            for i, text in enumerate(texts):
                write(os.path.join(root, split, polarity, f"{i}_{7 + i}.txt"), f"{split} {text}")
    return {"usage": "all", "shuffle": False}


@case("SST2Dataset_train", "SST2Dataset")
def _sst2(root):
    write(os.path.join(root, "train.tsv"), "sentence\tlabel\nhide new secretions \t0\n"
                                           "contains no wit , only labored gags \t0\n"
                                           "that loves its characters \t1\n")
    write(os.path.join(root, "dev.tsv"), "sentence\tlabel\nit 's a charming journey . \t1\n")
    write(os.path.join(root, "test.tsv"), "index\tsentence\n0\tuneasy mishmash of styles\n"
                                          "1\tthis film 's relationship\n")
    return {"usage": "train", "shuffle": False}


@case("SST2Dataset_test", "SST2Dataset")
def _sst2_test(root):
    _sst2(root)
    return {"usage": "test", "shuffle": False}


# ------------------------------------------------------------------ binary image formats
@case("EMnistDataset_mnist_all", "EMnistDataset")
def _emnist(root):
    for split, count in (("train", 3), ("test", 2)):
        images = np.random.default_rng(count).integers(0, 256, (count, 28, 28), dtype=np.uint8)
        write_idx(os.path.join(root, f"emnist-mnist-{split}-images-idx3-ubyte"), images)
        write_idx(os.path.join(root, f"emnist-mnist-{split}-labels-idx1-ubyte"),
                  np.arange(count, dtype=np.uint8) + 1)
    return {"name": "mnist", "usage": "all", "shuffle": False}


def _qmnist_files(root):
    for prefix, count in (("qmnist-train", 3), ("qmnist-test", 2)):
        images = np.random.default_rng(count).integers(0, 256, (count, 28, 28), dtype=np.uint8)
        write_idx(os.path.join(root, f"{prefix}-images-idx3-ubyte"), images)
        labels = (np.arange(count * 8).reshape(count, 8) % 10 + 1).astype(">i4")
        write_idx(os.path.join(root, f"{prefix}-labels-idx2-int"), labels)


@case("QMnistDataset_train", "QMnistDataset")
def _qmnist(root):
    _qmnist_files(root)
    return {"usage": "train", "shuffle": False}


@case("QMnistDataset_test_full", "QMnistDataset")
def _qmnist_full(root):
    _qmnist_files(root)
    return {"usage": "test", "compat": False, "shuffle": False}


@case("USPSDataset_all", "USPSDataset")
def _usps(root):
    def line(label, seed):
        values = np.random.default_rng(seed).uniform(-1, 1, 256)
        return f"{label} " + " ".join(f"{i + 1}:{v:.6f}" for i, v in enumerate(values)) + " "
    write(os.path.join(root, "usps"), line(6, 0) + "\n" + line(10, 1) + "\n")
    write(os.path.join(root, "usps.t"), line(1, 2) + "\n")
    return {"usage": "all", "shuffle": False}


@case("SemeionDataset", "SemeionDataset")
def _semeion(root):
    lines = []
    for digit in (0, 7, 3):
        bits = np.random.default_rng(digit).integers(0, 2, 256)
        onehot = np.eye(10, dtype=int)[digit]
        lines.append(" ".join(f"{b}.0000" for b in bits) + " " + " ".join(map(str, onehot)) + " ")
    write(os.path.join(root, "semeion.data"), "\n".join(lines) + "\n")
    return {"shuffle": False}


@case("STL10Dataset_train", "STL10Dataset")
def _stl10(root):
    for split, count in (("train", 2), ("test", 1)):
        images = np.random.default_rng(count).integers(0, 256, (count, 3, 96, 96), dtype=np.uint8)
        write(os.path.join(root, f"{split}_X.bin"), images.tobytes(), "wb")
        write(os.path.join(root, f"{split}_y.bin"), bytes(range(1, count + 1)), "wb")
    images = np.random.default_rng(9).integers(0, 256, (1, 3, 96, 96), dtype=np.uint8)
    write(os.path.join(root, "unlabeled_X.bin"), images.tobytes(), "wb")
    return {"usage": "train", "shuffle": False}


@case("STL10Dataset_unlabeled", "STL10Dataset")
def _stl10_unlabeled(root):
    _stl10(root)
    return {"usage": "unlabeled", "shuffle": False}


# ------------------------------------------------------------------ audio
@case("YesNoDataset", "YesNoDataset")
def _yesno(root):
    for i, name in enumerate(("0_1_0_0_1_0_1_1", "1_1_0_0_1_1_0_0")):
        write_wav(os.path.join(root, f"{name}.wav"), wav_samples(i), 8000)
    return {"shuffle": False}


@case("SpeechCommandsDataset_all", "SpeechCommandsDataset")
def _speech_commands(root):
    names = ["cat/b433eff_nohash_0.wav", "cat/5a33edf_nohash_1.wav", "dog/b433w2w_nohash_0.wav",
             "dog/0ab3b47d_nohash_2.wav"]
    for i, name in enumerate(names):
        write_wav(os.path.join(root, name), wav_samples(i))
    write(os.path.join(root, "testing_list.txt"), "dog/b433w2w_nohash_0.wav\n")
    write(os.path.join(root, "validation_list.txt"), "cat/5a33edf_nohash_1.wav\n")
    return {"usage": "all", "shuffle": False}


@case("SpeechCommandsDataset_train", "SpeechCommandsDataset")
def _speech_commands_train(root):
    _speech_commands(root)
    return {"usage": "train", "shuffle": False}


@case("SpeechCommandsDataset_valid", "SpeechCommandsDataset")
def _speech_commands_valid(root):
    _speech_commands(root)
    return {"usage": "valid", "shuffle": False}


@case("LJSpeechDataset", "LJSpeechDataset")
def _ljspeech(root):
    write(os.path.join(root, "metadata.csv"),
          "LJ001-0001|Printing, in the only sense|Printing, in the only sense\n"
          "LJ001-0002|in 1 year|in one year\n")
    for i, name in enumerate(("LJ001-0001", "LJ001-0002")):
        write_wav(os.path.join(root, "wavs", f"{name}.wav"), wav_samples(i), 22050)
    return {"shuffle": False}


@case("GTZANDataset_all", "GTZANDataset")
def _gtzan(root):
    for i, name in enumerate(("blues/blues.00000.wav", "blues/blues.00001.wav",
                              "disco/disco.00000.wav")):
        write_wav(os.path.join(root, name), wav_samples(i), 22050)
    return {"usage": "all", "shuffle": False}


@case("CMUArcticDataset_aew", "CMUArcticDataset")
def _cmu_arctic(root):
    base = os.path.join(root, "cmu_us_aew_arctic")
    write(os.path.join(base, "etc", "txt.done.data"),
          '( arctic_a0001 "Author of the danger trail, Philip Steels, etc." )\n'
          '( arctic_a0002 "Not at this particular case, Tom." )\n')
    for i, name in enumerate(("arctic_a0001", "arctic_a0002")):
        write_wav(os.path.join(base, "wav", f"{name}.wav"), wav_samples(i))
    return {"name": "aew", "shuffle": False}


@case("LibriTTSDataset_dev_clean", "LibriTTSDataset")
def _libritts(root):
    chapter = os.path.join(root, "dev-clean", "116", "288045")
    write(os.path.join(chapter, "116_288045.trans.tsv"),
          "116_288045_000003_000000\tHe was, Sir.\the was sir\n"
          "116_288045_000004_000001\t\"Good,\" said he.\tgood said he\n")
    for i, name in enumerate(("116_288045_000003_000000", "116_288045_000004_000001")):
        write_wav(os.path.join(chapter, f"{name}.wav"), wav_samples(i), 24000)
        write(os.path.join(chapter, f"{name}.original.txt"), "x")
    return {"usage": "dev-clean", "shuffle": False}


# ------------------------------------------------------------------ image folders
@case("Caltech256Dataset", "Caltech256Dataset")
def _caltech256(root):
    for i, name in enumerate(("001.ak47/001_0001.jpg", "001.ak47/001_0002.jpg",
                              "002.american-flag/002_0001.jpg", "257.clutter/257_0001.jpg")):
        write_image(os.path.join(root, name), i)
    return {"shuffle": False}


@case("RenderedSST2Dataset_all", "RenderedSST2Dataset")
def _rendered_sst2(root):
    seed = 0
    for split in ("train", "valid", "test"):
        for polarity in ("negative", "positive"):
            seed += 1
            write_image(os.path.join(root, split, polarity, f"{seed:04d}.png"), seed)
    return {"usage": "all", "shuffle": False}


@case("Food101Dataset_train", "Food101Dataset")
def _food101(root):
    names = ["apple_pie/1005649", "apple_pie/1014775", "baby_back_ribs/1005293"]
    for i, name in enumerate(names):
        write_image(os.path.join(root, "images", f"{name}.jpg"), i)
    write(os.path.join(root, "meta", "train.txt"), "apple_pie/1005649\nbaby_back_ribs/1005293\n")
    write(os.path.join(root, "meta", "test.txt"), "apple_pie/1014775\n")
    return {"usage": "train", "shuffle": False}


@case("SUN397Dataset", "SUN397Dataset")
def _sun397(root):
    write(os.path.join(root, "ClassName.txt"), "/a/abbey\n/a/apartment_building/outdoor\n")
    names = ["a/abbey/sun_aaaulhwrhqgejnyt.jpg", "a/apartment_building/outdoor/sun_aamy.jpg",
             "a/abbey/sun_aacphuqehdodwawg.jpg"]
    for i, name in enumerate(names):
        write_image(os.path.join(root, name), i)
    return {"shuffle": False}


@case("OmniglotDataset_background", "OmniglotDataset")
def _omniglot(root):
    names = ["images_background/Alphabet_of_the_Magi/character01/0709_01.png",
             "images_background/Alphabet_of_the_Magi/character02/0710_01.png",
             "images_background/Greek/character01/0394_01.png",
             "images_evaluation/Angelic/character01/0965_01.png"]
    for i, name in enumerate(names):
        write_image(os.path.join(root, name), i, mode="L")
    return {"background": True, "shuffle": False}


@case("SBUDataset", "SBUDataset")
def _sbu(root):
    write(os.path.join(root, "SBU_captioned_photo_dataset_urls.txt"),
          "http://static.flickr.com/2723/4385058960_b0f291553e.jpg\n"
          "http://static.flickr.com/1/1_missing.jpg\n"
          "http://static.flickr.com/3326/3596303505_3ce4c20529.jpg\n")
    write(os.path.join(root, "SBU_captioned_photo_dataset_captions.txt"),
          "A wooden chair in the living room\nmissing\n Sunset over the water \n")
    # which file name MindSpore looks for is what this case finds out: one candidate per seed
    write_image(os.path.join(root, "sbu_images", "4385058960_b0f291553e.jpg"), 0)
    write_image(os.path.join(root, "sbu_images", "m_2723_4385058960_b0f291553e.jpg"), 1)
    write_image(os.path.join(root, "sbu_images", "2723_4385058960_b0f291553e.jpg"), 2)
    write_image(os.path.join(root, "sbu_images", "m_3326_3596303505_3ce4c20529.jpg"), 3)
    return {"shuffle": False}


@case("LSUNDataset_train", "LSUNDataset")
def _lsun(root):
    for i, name in enumerate(("bedroom_train/1_1.jpg", "bedroom_train/1_2.jpg",
                              "classroom_train/2_1.jpg", "bedroom_val/3_1.jpg")):
        write_image(os.path.join(root, name), i)
    return {"usage": "train", "classes": ["bedroom", "classroom"], "shuffle": False}


@case("Places365Dataset_train_small", "Places365Dataset")
def _places365(root):
    write(os.path.join(root, "categories_places365.txt"), "/a/airfield 0\n/a/airplane_cabin 1\n")
    write(os.path.join(root, "places365_train_standard.txt"),
          "/a/airfield/00000001.jpg 0\n/a/airplane_cabin/00000001.jpg 1\n")
    write(os.path.join(root, "places365_val.txt"), "Places365_val_00000001.jpg 1\n")
    write_image(os.path.join(root, "data_256_standard", "a", "airfield", "00000001.jpg"), 0)
    write_image(os.path.join(root, "data_256_standard", "a", "airplane_cabin", "00000001.jpg"), 1)
    write_image(os.path.join(root, "val_256", "Places365_val_00000001.jpg"), 2)
    return {"usage": "train-standard", "small": True, "shuffle": False}


@case("LFWDataset_people", "LFWDataset")
def _lfw(root):
    for i, name in enumerate(("Aaron_Eckhart/Aaron_Eckhart_0001.jpg",
                              "Abbas_Kiarostami/Abbas_Kiarostami_0001.jpg",
                              "Abbas_Kiarostami/Abbas_Kiarostami_0002.jpg")):
        write_image(os.path.join(root, "lfw", name), i)
    write(os.path.join(root, "lfw-names.txt"), "Aaron_Eckhart\t1\nAbbas_Kiarostami\t2\n")
    write(os.path.join(root, "peopleDevTrain.txt"), "2\nAaron_Eckhart\t1\nAbbas_Kiarostami\t2\n")
    write(os.path.join(root, "peopleDevTest.txt"), "1\nAbbas_Kiarostami\t1\n")
    write(os.path.join(root, "people.txt"), "1\n2\nAaron_Eckhart\t1\nAbbas_Kiarostami\t2\n")
    write(os.path.join(root, "pairsDevTrain.txt"),
          "1\nAbbas_Kiarostami\t1\t2\nAaron_Eckhart\t1\tAbbas_Kiarostami\t2\n")
    return {"task": "people", "usage": "train", "image_set": "original", "shuffle": False}


@case("LFWDataset_pairs", "LFWDataset")
def _lfw_pairs(root):
    _lfw(root)
    return {"task": "pairs", "usage": "train", "image_set": "original", "shuffle": False}


# ------------------------------------------------------------------ JSON and parallel corpora
@case("CLUEDataset_afqmc_train", "CLUEDataset")
def _clue(root):
    import json
    lines = [{"sentence1": "双十一花呗提额在哪", "sentence2": "里可以提花呗额度", "label": "0"},
             {"sentence1": "花呗支持高铁票支付吗", "sentence2": "为什么友付宝不支持花呗付款", "label": "1"}]
    path = os.path.join(root, "train.json")
    write(path, "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return {"__files__": path, "task": "AFQMC", "usage": "train", "shuffle": False}


@case("CLUEDataset_afqmc_test", "CLUEDataset")
def _clue_test(root):
    path = os.path.join(root, "test.json")
    write(path, '{"id": 0, "sentence1": "借呗取消的时间", "sentence2": "蚂蚁借呗恢复的时间"}\n'
                '{"id": 7, "sentence1": "a", "sentence2": "b"}\n')
    return {"__files__": path, "task": "AFQMC", "usage": "test", "shuffle": False}


@case("CLUEDataset_tnews_train", "CLUEDataset")
def _clue_tnews(root):
    path = os.path.join(root, "train.json")
    write(path, '{"label": "102", "label_desc": "news_entertainment", "sentence": "江疏影甜甜圈", '
                '"keywords": "江疏影,美少女"}\n')
    return {"__files__": path, "task": "TNEWS", "usage": "train", "shuffle": False}


@case("CLUEDataset_wsc_eval", "CLUEDataset")
def _clue_wsc(root):
    path = os.path.join(root, "dev.json")
    write(path, '{"target": {"span2_index": 37, "span1_index": 5, "span1_text": "床", '
                '"span2_text": "它"}, "idx": 0, "label": "false", "text": "这时候放在床上枕头旁边"}\n')
    return {"__files__": path, "task": "WSC", "usage": "eval", "shuffle": False}


@case("CLUEDataset_csl_train", "CLUEDataset")
def _clue_csl(root):
    path = os.path.join(root, "train.json")
    write(path, '{"id": 1, "abst": "摘要", "keyword": ["水声", "模糊"], "label": "1"}\n')
    return {"__files__": path, "task": "CSL", "usage": "train", "shuffle": False}


def _squad_file(path, version2=False):
    import json
    qas = [{"question": "To whom did the Virgin Mary appear?", "id": "q1",
            "answers": [{"text": "Saint Bernadette", "answer_start": 5},
                        {"text": "Bernadette", "answer_start": 11}]},
           {"question": "What sits on top?", "id": "q2",
            "answers": [{"text": "a golden statue", "answer_start": 0}]}]
    if version2:
        qas.append({"question": "Unanswerable?", "id": "q3", "answers": [], "is_impossible": True})
    data = {"version": "v2.0" if version2 else "1.1",
            "data": [{"title": "Notre_Dame", "paragraphs": [
                {"context": "Architecturally, the school has a Catholic character.", "qas": qas},
                {"context": "Second paragraph.", "qas": [
                    {"question": "Which?", "id": "q4",
                     "answers": [{"text": "Second", "answer_start": 0}]}]}]}]}
    write(path, json.dumps(data))


@case("SQuADDataset_v1_all", "SQuADDataset")
def _squad1(root):
    _squad_file(os.path.join(root, "train-v1.1.json"))
    _squad_file(os.path.join(root, "dev-v1.1.json"))
    return {"usage": "all", "shuffle": False}


@case("SQuADDataset_v2_dev", "SQuADDataset")
def _squad2(root):
    _squad_file(os.path.join(root, "dev-v2.0.json"), version2=True)
    return {"usage": "dev", "shuffle": False}


@case("Multi30kDataset_all", "Multi30kDataset")
def _multi30k(root):
    for folder, stem in (("training", "train"), ("validation", "val"), ("mmt16_task1_test", "test")):
        write(os.path.join(root, folder, f"{stem}.en"), f"Two young {stem} males.\nSeveral men.\n")
        write(os.path.join(root, folder, f"{stem}.de"), f"Zwei junge {stem} Männer.\nMehrere Männer.\n")
    return {"usage": "all", "shuffle": False}


@case("Multi30kDataset_valid_de_en", "Multi30kDataset")
def _multi30k_valid(root):
    _multi30k(root)
    return {"usage": "valid", "language_pair": ["de", "en"], "shuffle": False}


def _iwslt_texts(folder, stem, src, tgt, sets):
    for language, word in ((src, "Hallo"), (tgt, "Hello")):
        write(os.path.join(folder, f"train.tags.{src}-{tgt}.{language}"),
              f"<url>http://www.ted.com/talks/x</url>\n<keywords>talks</keywords>\n"
              f"{word} train one\n  {word} train two  \n<talkid>1</talkid>\n")
        for name in sets:
            write(os.path.join(folder, f"{stem}.TED.{name}.{src}-{tgt}.{language}.xml"),
                  '<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset>\n<doc docid="1">\n'
                  f'<url>x</url>\n<seg id="1"> {word} {name} eins </seg>\n'
                  f'<seg id="2">{word} {name} &amp; zwei</seg>\n</doc>\n</srcset>\n</mteval>\n')


@case("IWSLT2016Dataset_all", "IWSLT2016Dataset")
def _iwslt2016(root):
    _iwslt_texts(os.path.join(root, "texts", "de", "en", "de-en"), "IWSLT16", "de", "en",
                 ("tst2013", "tst2014", "dev2010"))
    return {"usage": "all", "shuffle": False}


@case("IWSLT2016Dataset_valid", "IWSLT2016Dataset")
def _iwslt2016_valid(root):
    _iwslt2016(root)
    return {"usage": "valid", "valid_set": "dev2010", "shuffle": False}


@case("IWSLT2017Dataset_all", "IWSLT2017Dataset")
def _iwslt2017(root):
    _iwslt_texts(os.path.join(root, "texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo"),
                 "IWSLT17", "de", "en", ("dev2010", "tst2010"))
    return {"usage": "all", "shuffle": False}


# ------------------------------------------------------------------ annotated image corpora
@case("DIV2KDataset_train_bicubic_x2", "DIV2KDataset")
def _div2k(root):
    for i, name in enumerate(("0001", "0002")):
        write_image(os.path.join(root, "DIV2K_train_HR", f"{name}.png"), i, (4, 6))
        write_image(os.path.join(root, "DIV2K_train_LR_bicubic", "X2", f"{name}x2.png"), 10 + i,
                    (2, 3))
        write_image(os.path.join(root, "DIV2K_train_LR_mild", f"{name}x4m.png"), 20 + i, (1, 2))
    write_image(os.path.join(root, "DIV2K_valid_HR", "0801.png"), 5, (4, 6))
    write_image(os.path.join(root, "DIV2K_valid_LR_bicubic", "X2", "0801x2.png"), 15, (2, 3))
    return {"usage": "train", "downgrade": "bicubic", "scale": 2, "shuffle": False}


@case("DIV2KDataset_all_mild", "DIV2KDataset")
def _div2k_mild(root):
    _div2k(root)
    write_image(os.path.join(root, "DIV2K_valid_LR_mild", "0801x4m.png"), 25, (1, 2))
    return {"usage": "all", "downgrade": "mild", "scale": 4, "shuffle": False}


@case("FlickrDataset", "FlickrDataset")
def _flickr(root):
    lines = []
    for i, name in enumerate(("1000268201_693b08cb0e.jpg", "1001773457_577c3a7d70.jpg")):
        write_image(os.path.join(root, "images", name), i)
        lines += [f"{name}#{k}\tcaption {k} of image {i} ." for k in range(5)]
    write(os.path.join(root, "Flickr8k.token.txt"), "\n".join(lines) + "\n")
    return {"__files__": os.path.join(root, "images"),
            "annotation_file": os.path.join(root, "Flickr8k.token.txt"), "shuffle": False}


@case("KITTIDataset_train", "KITTIDataset")
def _kitti(root):
    labels = ["Car 0.00 0 -1.58 587.01 173.33 614.12 200.12 1.65 1.67 3.64 -0.65 1.71 46.70 -1.59\n"
              "Pedestrian 0.50 1 0.21 423.17 173.67 433.17 224.03 1.60 0.39 0.79 -7.60 1.59 28.42 -0.05\n",
              "DontCare -1 -1 -10 503.89 169.71 590.61 190.13 -1 -1 -1 -1000 -1000 -1000 -10\n"]
    for i, text in enumerate(labels):
        write_image(os.path.join(root, "data_object_image_2", "training", "image_2", f"{i:06d}.png"), i)
        write(os.path.join(root, "data_object_label_2", "training", "label_2", f"{i:06d}.txt"), text)
    write_image(os.path.join(root, "data_object_image_2", "testing", "image_2", "000000.png"), 7)
    return {"usage": "train", "shuffle": False}


@case("KITTIDataset_test", "KITTIDataset")
def _kitti_test(root):
    _kitti(root)
    return {"usage": "test", "shuffle": False}


@case("ManifestDataset_train", "ManifestDataset")
def _manifest(root):
    import json
    lines = []
    for i, (usage, names) in enumerate((("train", ["dog"]), ("train", ["cat"]), ("eval", ["cat"]),
                                        ("train", ["cat", "dog"]))):
        path = os.path.join(root, "images", f"{i}.jpg")
        write_image(path, i)
        lines.append(json.dumps({"source": path, "usage": usage, "annotation": [
            {"type": "modelarts/image_classification", "name": name} for name in names]}))
    path = os.path.join(root, "manifest.json")
    write(path, "\n".join(lines) + "\n")
    return {"__files__": path, "usage": "train", "shuffle": False}


@case("WIDERFaceDataset_train", "WIDERFaceDataset")
def _wider_face(root):
    names = ["0--Parade/0_Parade_marchingband_1_849.jpg", "1--Handshaking/1_Handshaking_1_42.jpg"]
    for i, name in enumerate(names):
        write_image(os.path.join(root, "WIDER_train", "images", name), i)
    write_image(os.path.join(root, "WIDER_val", "images", "0--Parade", "0_Parade_1_2.jpg"), 5)
    os.makedirs(os.path.join(root, "WIDER_val", "images", "1--Handshaking"))
    write(os.path.join(root, "wider_face_split", "wider_face_train_bbx_gt.txt"),
          f"{names[0]}\n1\n449 330 122 149 0 0 0 0 0 0 \n"
          f"{names[1]}\n2\n78 221 7 8 2 0 0 0 0 0 \n78 238 14 17 2 0 1 0 1 2 \n")
    write(os.path.join(root, "wider_face_split", "wider_face_val_bbx_gt.txt"),
          "0--Parade/0_Parade_1_2.jpg\n1\n1 2 3 4 0 1 0 0 0 0 \n")
    return {"usage": "train", "shuffle": False}


@case("WIDERFaceDataset_all", "WIDERFaceDataset")
def _wider_face_all(root):
    _wider_face(root)
    return {"usage": "all", "shuffle": False}


@case("PhotoTourDataset_train", "PhotoTourDataset")
def _phototour(root):
    from PIL import Image
    folder = os.path.join(root, "liberty")
    os.makedirs(folder)
    pixels = np.random.default_rng(0).integers(0, 256, (1024, 1024), dtype=np.uint8)
    Image.fromarray(pixels, "L").save(os.path.join(folder, "patches0000.bmp"))
    write(os.path.join(folder, "info.txt"), "0 0\n0 0\n1 0\n2 0\n")
    write(os.path.join(folder, "m50_100000_100000_0.txt"),
          "0 0 0 1 0 0 0\n1 0 0 3 2 0 0\n")
    return {"name": "liberty", "usage": "train", "shuffle": False}


@case("PhotoTourDataset_test", "PhotoTourDataset")
def _phototour_test(root):
    _phototour(root)
    return {"name": "liberty", "usage": "test", "shuffle": False}


def _savemat(path, values):
    import scipy.io
    os.makedirs(os.path.dirname(path), exist_ok=True)
    scipy.io.savemat(path, values)


@case("SVHNDataset_all", "SVHNDataset")
def _svhn(root):
    for split, count in (("train", 2), ("test", 3), ("extra", 2)):
        images = np.random.default_rng(count).integers(0, 256, (32, 32, 3, count), dtype=np.uint8)
        labels = (np.arange(count) * 9 % 10 + 1).reshape(count, 1).astype(np.uint8)
        _savemat(os.path.join(root, f"{split}_32x32.mat"), {"X": images, "y": labels})
    return {"usage": "all", "shuffle": False}


@case("Flowers102Dataset_valid", "Flowers102Dataset")
def _flowers102(root):
    for i in range(1, 5):
        write_image(os.path.join(root, "jpg", f"image_{i:05d}.jpg"), i)
        write_image(os.path.join(root, "segmim", f"segmim_{i:05d}.jpg"), 10 + i)
    _savemat(os.path.join(root, "imagelabels.mat"), {"labels": np.array([[77, 1, 102, 5]], np.uint8)})
    _savemat(os.path.join(root, "setid.mat"), {"trnid": np.array([[1, 3]], np.uint16),
                                               "valid": np.array([[4, 2]], np.uint16),
                                               "tstid": np.array([[2]], np.uint16)})
    return {"task": "Classification", "usage": "valid", "shuffle": False}


@case("Flowers102Dataset_seg_all", "Flowers102Dataset")
def _flowers102_seg(root):
    _flowers102(root)
    return {"task": "Segmentation", "usage": "all", "decode": True, "shuffle": False}


@case("Caltech101Dataset_all", "Caltech101Dataset")
def _caltech101(root):
    for i, name in enumerate(("Faces/image_0001.jpg", "Faces/image_0002.jpg",
                              "accordion/image_0001.jpg", "BACKGROUND_Google/image_0001.jpg")):
        write_image(os.path.join(root, "101_ObjectCategories", name), i)
    for i, name in enumerate(("Faces_2/annotation_0001.mat", "Faces_2/annotation_0002.mat",
                              "accordion/annotation_0001.mat")):
        contour = np.arange(6, dtype=np.float64).reshape(2, 3) + i
        _savemat(os.path.join(root, "Annotations", name),
                 {"obj_contour": contour, "box_coord": np.array([[1, 2, 3, 4]], np.uint16)})
    return {"target_type": "all", "shuffle": False}


@case("CityscapesDataset_instance", "CityscapesDataset")
def _cityscapes(root):
    import json
    for i, stem in enumerate(("aachen_000000_000019", "aachen_000001_000019")):
        write_image(os.path.join(root, "leftImg8bit", "train", "aachen", f"{stem}_leftImg8bit.png"), i)
        gt = os.path.join(root, "gtFine", "train", "aachen", f"{stem}_gtFine_")
        write_image(gt + "instanceIds.png", 10 + i, mode="L")
        write_image(gt + "labelIds.png", 20 + i, mode="L")
        write_image(gt + "color.png", 30 + i)
        write(gt + "polygons.json", json.dumps({"imgHeight": 3, "imgWidth": 4, "objects": [
            {"label": "road", "polygon": [[0, 1], [2, 3]]}]}))
    return {"usage": "train", "quality_mode": "fine", "task": "instance", "shuffle": False}


@case("CityscapesDataset_polygon", "CityscapesDataset")
def _cityscapes_polygon(root):
    _cityscapes(root)
    return {"usage": "train", "quality_mode": "fine", "task": "polygon", "shuffle": False}


def _write_sph(path, samples, rate=16000):
    header = (f"NIST_1A\n   1024\nsample_rate -i {rate}\nchannel_count -i 1\nsample_n_bytes -i 2\n"
              f"sample_count -i {len(samples)}\nsample_byte_format -s2 01\n"
              "sample_coding -s3 pcm\nend_head\n").encode()
    write(path, header.ljust(1024, b" ") + np.asarray(samples, "<i2").tobytes(), "wb")


@case("TedliumDataset_release1_dev", "TedliumDataset")
def _tedlium(root):
    base = os.path.join(root, "TEDLIUM_release1", "dev")
    _write_sph(os.path.join(base, "sph", "AlGore_2009.sph"), wav_samples(0, 64))
    write(os.path.join(base, "stm", "AlGore_2009.stm"),
          "AlGore_2009 1 AlGore_2009 0.0 0.001 <o,f0,male> i 'm going to talk\n"
          "AlGore_2009 1 inter_segment_gap 0.001 0.002 <o,,unknown> ignore_time_segment_in_scoring\n"
          "AlGore_2009 1 AlGore_2009 0.002 0.0035 <o,f0,male> thank you\n")
    return {"__files__": os.path.join(root, "TEDLIUM_release1"), "release": "release1",
            "usage": "dev", "shuffle": False}


def _sbd(root):
    import scipy.sparse
    names = ["2008_000002", "2008_000003", "2008_000007"]
    for i, name in enumerate(names):
        write_image(os.path.join(root, "img", f"{name}.jpg"), i)
        rng = np.random.default_rng(i)
        boundaries = np.empty((20, 1), dtype=object)
        for k in range(20):
            boundaries[k, 0] = scipy.sparse.csc_matrix((rng.random((3, 4)) > 0.8).astype(np.uint8))
        segmentation = rng.integers(0, 21, (3, 4)).astype(np.uint8)
        _savemat(os.path.join(root, "cls", f"{name}.mat"),
                 {"GTcls": {"Boundaries": boundaries, "Segmentation": segmentation,
                            "CategoriesPresent": np.array([[1]], np.uint8)}})
    write(os.path.join(root, "train.txt"), "2008_000002\n2008_000007\n")
    write(os.path.join(root, "val.txt"), "2008_000003\n")
    write(os.path.join(root, "train_noval.txt"), "2008_000002\n")


@case("SBDataset_boundaries_all", "SBDataset")
def _sbd_boundaries(root):
    _sbd(root)
    return {"task": "Boundaries", "usage": "all", "shuffle": False}


@case("SBDataset_segmentation_val", "SBDataset")
def _sbd_segmentation(root):
    _sbd(root)
    return {"task": "Segmentation", "usage": "val", "decode": True, "shuffle": False}

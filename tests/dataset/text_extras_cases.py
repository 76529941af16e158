"""Inputs of the Jieba and SentencePiece cases, shared by the MindSpore recorder
(``tests/fixtures/dataset/record_text_extras_oracle.py``) and ``test_text_extras.py``."""
import os
import random

JIEBA_DICTIONARY = ("床前 3 n\n明月 100 n\n明月光 200 n\n月光 50 n\n光 20 n\n疑是 10 v\n地上 30 n\n"
                    "霜 5 n\n举头 8 v\n望 5 v\n低头 8 v\n思 3 v\n故乡 40 n\n床 10 n\n前 30 f\n")
JIEBA_TEXTS = ["床前明月光", "疑是地上霜举头望明月低头思故乡", "我爱北京天安门", "hello 世界 abc123 2.5%",
               "小明硕士毕业于中国科学院计算所", "  空格 测试\t！", "Python3是最好的语言吗?"]
SPIECE_TEXT = "hello world the lazy fox"
SPIECE_MODELS = (("UNIGRAM", 40), ("BPE", 40), ("CHAR", 25), ("WORD", 20))


def write_jieba_files(folder):
    """The dictionary, and an HMM model in cppjieba's format made from the tables of the
    `jieba` package (the model cppjieba ships is the same one)."""
    import jieba.finalseg as finalseg
    states = "BEMS"
    lines = [" ".join(str(finalseg.start_P[s]) for s in states)]
    lines += [" ".join(str(finalseg.trans_P[a].get(b, -3.14e100)) for b in states) for a in states]
    lines += [",".join(f"{c}:{p}" for c, p in finalseg.emit_P[s].items()) for s in states]
    hmm, mp = os.path.join(folder, "hmm_model.utf8"), os.path.join(folder, "jieba.dict.utf8")
    with open(hmm, "w", encoding="utf-8") as handle:
        handle.write("# B E M S\n" + "\n".join(lines) + "\n")
    with open(mp, "w", encoding="utf-8") as handle:
        handle.write(JIEBA_DICTIONARY)
    return hmm, mp


def write_corpus(path):
    chooser = random.Random(0)
    words = ("the quick brown fox jumps over lazy dog hello world sentence piece model token data "
             "set train test").split()
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(" ".join(chooser.choice(words) for _ in range(8))
                               for _ in range(300)) + "\n")


def run_jieba(text, folder):
    hmm, mp = write_jieba_files(folder)
    out = {}
    for mode in ("MIX", "MP", "HMM"):
        tokenizer = text.JiebaTokenizer(hmm, mp, mode=getattr(text.JiebaMode, mode), with_offsets=True)
        for sample in JIEBA_TEXTS:
            tokens, starts, ends = tokenizer(sample)
            out[f"{mode}|{sample}"] = [[str(t) for t in tokens], [int(s) for s in starts],
                                       [int(e) for e in ends]]
    tokenizer = text.JiebaTokenizer(hmm, mp, mode=text.JiebaMode.MP)
    tokenizer.add_word("举头望", 1000)
    tokenizer.add_dict({"思故乡": 500})
    out["MP+added"] = [str(t) for t in tokenizer(JIEBA_TEXTS[1])]
    return out


def run_sentencepiece(text, ds, folder):
    corpus = os.path.join(folder, "corpus.txt")
    write_corpus(corpus)
    out = {}
    for kind, size in SPIECE_MODELS:
        vocab = text.SentencePieceVocab.from_file([corpus], size, 1.0,
                                                  getattr(text.SentencePieceModel, kind), {})
        pieces = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)(SPIECE_TEXT)
        ids = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.INT)(SPIECE_TEXT)
        out[kind] = [[str(p) for p in pieces], ids.tolist(), str(ids.dtype)]
    vocab = text.SentencePieceVocab.from_file([corpus], 40, 1.0, text.SentencePieceModel.UNIGRAM, {})
    text.SentencePieceVocab.save_model(vocab, folder, "m.model")
    tokenizer = text.SentencePieceTokenizer(os.path.join(folder, "m.model"),
                                            text.SPieceTokenizerOutType.STRING)
    out["from_path"] = [str(p) for p in tokenizer("hello world")]
    dataset = ds.TextFileDataset(corpus, shuffle=False)
    vocab = text.SentencePieceVocab.from_dataset(dataset, ["text"], 40, 1.0,
                                                 text.SentencePieceModel.UNIGRAM, {})
    out["from_dataset"] = [str(p) for p in text.SentencePieceTokenizer(
        vocab, text.SPieceTokenizerOutType.STRING)(SPIECE_TEXT)]
    return out

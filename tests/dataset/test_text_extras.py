"""Word vectors, ToVectors, FilterWikipediaXML, JiebaTokenizer and SentencePiece against
MindSpore 2.10 (values recorded from it; Jieba/SentencePiece in fixtures/dataset/text_extras_oracle.json)."""
import json
import os
import sys

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.text as text

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import text_extras_cases as cases  # noqa: E402

with open(os.path.join(HERE, "..", "fixtures", "dataset", "text_extras_oracle.json"),
          encoding="utf-8") as _f:
    ORACLE = json.load(_f)

VECTORS = ("ok 0.418 0.24968 -0.41242\n! 0.013441 0.23682 -0.16899\nthis 0.15164 0.30177 -0.16763\n"
           "is 0.70853 0.57088 -0.4716\nHAPPY 1 2 3\n")


@pytest.fixture
def files(tmp_path):
    (tmp_path / "vectors.txt").write_text(VECTORS)
    (tmp_path / "glove.6B.test.txt").write_text(VECTORS)
    (tmp_path / "wiki.vec").write_text("3 3\n" + "".join(VECTORS.splitlines(True)[:3]))
    (tmp_path / "charNgram.txt").write_text("1gram-a 0.1 0.2\n2gram-#BEGIN#a 1 1\n2gram-ab 2 0\n"
                                            "3gram-abc 3 3\n2gram-b#END# 4 4\n")
    return tmp_path


def test_vectors_lookup_as_mindspore(files):
    vectors = text.Vectors.from_file(str(files / "vectors.txt"))
    np.testing.assert_allclose(text.ToVectors(vectors)("this"), [0.15164, 0.30177, -0.16763])
    got = text.ToVectors(vectors)(["this", "is", "unk"])
    np.testing.assert_allclose(got, [[0.15164, 0.30177, -0.16763], [0.70853, 0.57088, -0.4716],
                                     [0, 0, 0]], rtol=1e-6)
    assert got.dtype == np.float32
    np.testing.assert_allclose(text.ToVectors(vectors, unk_init=[9, 9, 9])(["nope"]), [[9, 9, 9]])
    lowered = text.ToVectors(vectors, lower_case_backup=True)(["Happy", "OK", "This"])
    np.testing.assert_allclose(lowered, [[0, 0, 0], [0.418, 0.24968, -0.41242],
                                         [0.15164, 0.30177, -0.16763]], rtol=1e-6)
    first_two = text.Vectors.from_file(str(files / "vectors.txt"), max_vectors=2)
    np.testing.assert_allclose(text.ToVectors(first_two)(["ok", "this"]),
                               [[0.418, 0.24968, -0.41242], [0, 0, 0]], rtol=1e-6)
    with pytest.raises(RuntimeError, match="string"):
        text.ToVectors(vectors)(np.array([1, 2]))


def test_glove_fasttext_charngram(files):
    fasttext = text.FastText.from_file(str(files / "wiki.vec"))  # its "3 3" header is skipped
    np.testing.assert_allclose(text.ToVectors(fasttext)(["!", "this", "x"]),
                               [[0.013441, 0.23682, -0.16899], [0.15164, 0.30177, -0.16763],
                                [0, 0, 0]], rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"can not find file '\*.vec'"):
        text.FastText.from_file(str(files / "vectors.txt"))
    glove = text.GloVe.from_file(str(files / "glove.6B.test.txt"))
    np.testing.assert_allclose(text.ToVectors(glove)(["is"]), [[0.70853, 0.57088, -0.4716]],
                               rtol=1e-6)
    with pytest.raises(RuntimeError, match="glove.6B"):
        text.GloVe.from_file(str(files / "vectors.txt"))
    charngram = text.CharNGram.from_file(str(files / "charNgram.txt"))
    np.testing.assert_allclose(text.ToVectors(charngram)(["abc", "ab", "zz", "a"]),
                               [[2, 4 / 3], [7 / 3, 5 / 3], [0, 0], [1, 1]], rtol=1e-6)


WIKIPEDIA = [  # (input, MindSpore 2.10's output)
    ("Welcome    to    China", "welcome to china"), ("!!!", ""), ("ABC 12 x-y", "abc one two x y"),
    ("a\nb", "a b"), ("<b>bold</b> x", "x"), ("x <b>bold</b>", "x"), ("[[link|Text]] y", "link text y"),
    ("{{tmpl}} z", "tmpl z"), ("&amp; q", "q"), ("é z", "z"), ("a <ref>r</ref> b", "a b"),
    ("a [[image:x.png|cap]] b", "a image x png cap b"), ("[[category:Foo|bar]]", "category foo bar"),
    ("#REDIRECT x", ""), ("&lt; t &gt;", "t"), ("  lead", "lead"),
    ("x|thumb|left|200px y", "x thumb left two zero zero px y"),
    ("[http://x.y/z link text]", "http x y z link text"),
    ("Hi [[File:x.jpg|thumb]] [http://a.b c d] '''b''' 3 Ünï", "hi file x jpg thumb http a b c d b three n"),
]


def test_filter_wikipedia_xml():
    op = text.FilterWikipediaXML()
    for given, expected in WIKIPEDIA:
        assert str(op(given)) == expected, given
    out = op(np.array(["Welcome    to    China", "ABC"]))
    assert out.shape == (2,) and out.tolist() == ["welcome to china", "abc"]
    data = ds.NumpySlicesDataset(["Welcome    to    China"], column_names=["text"], shuffle=False)
    rows = list(data.map(operations=op).create_tuple_iterator(output_numpy=True))
    assert str(rows[0][0]) == "welcome to china"


def test_jieba_tokenizer_matches_mindspore(tmp_path):
    pytest.importorskip("jieba")
    assert cases.run_jieba(text, str(tmp_path)) == ORACLE["jieba"]


def test_jieba_tokenizer_arguments(tmp_path):
    pytest.importorskip("jieba")
    hmm, mp = cases.write_jieba_files(str(tmp_path))
    with pytest.raises(TypeError, match="mode"):
        text.JiebaTokenizer(hmm, mp, mode="MP")
    with pytest.raises(ValueError, match="does not exist"):
        text.JiebaTokenizer(hmm, str(tmp_path / "missing"))
    data = ds.NumpySlicesDataset(["床前明月光"], column_names=["text"], shuffle=False)
    op = text.JiebaTokenizer(hmm, mp, mode=text.JiebaMode.MP)
    rows = list(data.map(operations=op).create_tuple_iterator(output_numpy=True))
    assert rows[0][0].tolist() == ORACLE["jieba"]["MP|床前明月光"][0]


def test_sentencepiece_matches_mindspore(tmp_path):
    pytest.importorskip("sentencepiece")
    assert cases.run_sentencepiece(text, ds, str(tmp_path)) == ORACLE["sentencepiece"]
    assert [e.value for e in text.SentencePieceModel] == [0, 1, 2, 3]
    assert text.SPieceTokenizerOutType.INT == 1 and text.SPieceTokenizerLoadType.MODEL == 1
    with pytest.raises(TypeError, match="out_type"):
        text.SentencePieceTokenizer(str(tmp_path / "m.model"), "STRING")

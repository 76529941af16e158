"""sporax.dataset.text vs MindSpore 2.10's recorded behaviour."""
import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.text as text
from sporax.core import dtype as ms


@pytest.fixture
def vocab():
    return text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"], special_first=True)


def test_vocab_construction_and_lookups(vocab):
    assert vocab.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3, "c": 4}
    assert vocab.tokens_to_ids(["a", "zz"]) == [2, -1] and vocab.tokens_to_ids("b") == 3
    assert vocab.ids_to_tokens([0, 4, 9]) == ["<pad>", "c", ""] and vocab.ids_to_tokens(2) == "a"
    last = text.Vocab.from_list(["a", "b"], special_tokens=["<unk>"], special_first=False)
    assert last.vocab() == {"a": 0, "b": 1, "<unk>": 2}
    assert text.Vocab.from_dict({"x": 3, "y": 7}).vocab() == {"x": 3, "y": 7}
    with pytest.raises(ValueError, match="duplicate word: a"):
        text.Vocab.from_list(["a", "a"])


_CORPUS = ["the cat sat on the mat", "the dog ate the cat food", "a bird sang on a tree"]
_LETTERS = "a b c d e f g h i j k l m n o p q r s t u v".split()

# (Vocab, the order MindSpore 2.10's vocab() lists its tokens in: its C++ unordered_map's iteration order)
VOCAB_ORDERS = [
    (lambda: text.Vocab.from_dataset(ds.GeneratorDataset(["Welcome to Beijing"], "text").map(
        text.WhitespaceTokenizer())), ["to", "Welcome", "Beijing"]),
    (lambda: text.Vocab.from_dict({"home": 3, "behind": 2, "the": 4, "world": 5, "<unk>": 6}),
     ["home", "the", "world", "behind", "<unk>"]),
    (lambda: text.Vocab.from_list(["w%d" % i for i in range(40)], special_tokens=["<pad>", "<unk>"]),
     ["<pad>", "w38", "w36", "w35", "w34", "w33", "w32", "w29", "w10", "w37", "w14", "w11", "<unk>", "w16", "w6",
      "w5", "w24", "w19", "w4", "w39", "w3", "w8", "w22", "w27", "w7", "w12", "w13", "w1", "w9", "w26", "w0",
      "w21", "w15", "w30", "w18", "w17", "w20", "w23", "w31", "w28", "w2", "w25"]),
    (lambda: text.Vocab.from_list(_LETTERS, special_tokens=["<s>", "</s>"], special_first=False),
     ["t", "</s>", "v", "s", "r", "q", "o", "a", "<s>", "b", "u", "p", "h", "n", "d", "k", "c", "i", "f", "g", "e",
      "j", "l", "m"]),
    (lambda: text.Vocab.from_dataset(ds.GeneratorDataset(_CORPUS, "text").map(text.WhitespaceTokenizer()),
                                     special_tokens=["<pad>", "<unk>"]),
     ["tree", "<pad>", "<unk>", "the", "a", "on", "food", "cat", "mat", "ate", "bird", "dog", "sat", "sang"]),
]


@pytest.mark.parametrize("build, order", VOCAB_ORDERS)
def test_vocab_lists_tokens_in_mindspore_order(build, order):
    assert list(build().vocab()) == order


def test_vocab_order_of_a_large_table():
    """3000 tokens: the table grew through libstdc++'s primes up to 3209 buckets (MindSpore 2.10's first 12)."""
    vocab = text.Vocab.from_list(["tok%d" % (index * 7919 % 100003) for index in range(3000)])
    assert list(vocab.vocab())[:12] == ["tok16694", "tok85021", "tok77102", "tok61264", "tok45426", "tok29588",
                                        "tok21669", "tok13750", "tok89996", "tok82077", "tok66239", "tok58320"]


def test_vocab_from_file_and_dataset(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("hello,1\nworld,2\n")
    assert text.Vocab.from_file(str(path), ",", special_tokens=["<unk>"]).vocab() == {
        "<unk>": 0, "hello": 1, "world": 2}
    data = ds.NumpySlicesDataset({"text": np.array([["b", "a"], ["a", "c"], ["a", "b"]])}, shuffle=False)
    built = text.Vocab.from_dataset(data, "text", special_tokens=["<pad>"])
    assert built.vocab() == {"<pad>": 0, "a": 1, "b": 2, "c": 3}
    assert text.Vocab.from_dataset(data, "text", top_k=1).vocab() == {"a": 0}


def test_lookup(vocab):
    out = text.Lookup(vocab, "<unk>")(np.array(["a", "q", "c"]))
    assert out.dtype == np.int32 and out.tolist() == [2, 1, 4]
    assert text.Lookup(vocab, "<unk>")("a").shape == ()
    assert text.Lookup(vocab, "<unk>", ms.int64)(np.array(["a"])).dtype == np.int64
    with pytest.raises(RuntimeError, match="doesn't exist in vocab"):
        text.Lookup(vocab)(np.array(["a", "q"]))


def test_whitespace_and_unicode_char_tokenizers():
    np.testing.assert_array_equal(text.WhitespaceTokenizer()("hello  world\tfoo\n"), ["hello", "world", "foo"])
    tokens, start, limit = text.WhitespaceTokenizer(True)("hello  world")
    assert tokens.tolist() == ["hello", "world"] and start.tolist() == [0, 7] and limit.tolist() == [5, 12]
    assert start.dtype == np.uint32
    tokens, start, limit = text.UnicodeCharTokenizer(True)("aé")
    assert tokens.tolist() == ["a", "é"] and limit.tolist() == [1, 3]  # UTF-8 byte offsets
    assert text.WhitespaceTokenizer()("").tolist() == [""]
    assert text.WhitespaceTokenizer()(np.array("a b")).tolist() == ["a", "b"]
    with pytest.raises(RuntimeError, match="scalar"):
        text.WhitespaceTokenizer()(np.array(["a b", "c"]))


def test_basic_regex_python_tokenizers():
    expected = ["Hello", ",", "World", "!", "你", "好", "ça"]
    assert text.BasicTokenizer()("Hello, World! 你好 ça").tolist() == expected
    assert text.BasicTokenizer(lower_case=True)("Hello, World! ÇA").tolist() == ["hello", ",", "world", "!", "ca"]
    assert text.BasicTokenizer(keep_whitespace=True)("a b").tolist() == ["a", " ", "b"]
    assert text.BasicTokenizer()("[CLS] hi").tolist() == ["[CLS]", "hi"]
    assert text.RegexTokenizer(r"\s+", r"\s+")("a b").tolist() == ["a", " ", "b"]
    assert text.PythonTokenizer(lambda s: s.split(","))(np.array("a,b,c")).tolist() == ["a", "b", "c"]
    with pytest.raises(TypeError, match="NumPy array"):
        text.PythonTokenizer(str.split)("a b")
    assert text.UnicodeScriptTokenizer()("abc 123 你好").tolist() == ["abc", "123", "你好"]
    wordpiece = text.WordpieceTokenizer(text.Vocab.from_list(["un", "##aff", "##able", "[UNK]"]))
    assert wordpiece(np.array(["unaffable", "xyz"])).tolist() == ["un", "##aff", "##able", "[UNK]"]


def test_to_number():
    out = text.ToNumber(ms.int32)(np.array(["1", "22"]))
    assert out.dtype == np.int32 and out.tolist() == [1, 22]
    assert text.ToNumber(ms.float32)(np.array(["1.5", "2"])).tolist() == [1.5, 2.0]
    with pytest.raises(RuntimeError, match=r"out of bounds if cast to int8. The valid range is: \[-128, 127\]"):
        text.ToNumber(ms.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError, match='invalid to convert "x"'):
        text.ToNumber(ms.int32)(np.array(["x"]))


def test_sequence_ops():
    assert text.SlidingWindow(2)(np.array(["a", "b", "c"])).tolist() == [["a", "b"], ["b", "c"]]
    assert text.Ngram(2)(np.array(["a", "b", "c"])).tolist() == ["a b", "b c"]
    padded = text.Ngram([2, 3], ("_", 1), ("_", 1), "-")(np.array(["a", "b", "c"]))
    assert padded.tolist() == ["_-a", "a-b", "b-c", "c-_", "_-a-b", "a-b-c", "b-c-_"]
    assert text.Truncate(2)(np.array(["a", "b", "c"])).tolist() == ["a", "b"]
    assert text.AddToken("<s>")(np.array(["a", "b"])).tolist() == ["<s>", "a", "b"]
    assert text.CaseFold()("HeLLo").tolist() == "hello"
    assert text.RegexReplace("a+", "x")("caaab aa").tolist() == "cxb x"
    assert text.NormalizeUTF8()("ﬁ").tolist() == "fi"
    assert text.to_str(np.array([b"a"])).tolist() == ["a"] and text.to_bytes(np.array(["a"])).tolist() == [b"a"]
    first, second = text.TruncateSequencePair(3)(np.array([1, 2, 3]), np.array([4, 5]))
    assert first.tolist() == [1, 2] and second.tolist() == [4]


def test_text_pipeline():
    vocab = text.Vocab.from_list(["hello", "world"], special_tokens=["<unk>"])
    data = ds.NumpySlicesDataset({"text": np.array(["hello world", "hello there"])}, shuffle=False)
    data = data.map([text.WhitespaceTokenizer(), text.Lookup(vocab, "<unk>")], input_columns="text")
    rows = [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[1, 2], [1, 0]]


_OFFSET_VOCAB = ["book", "cholera", "era", "favor", "##ite", "my", "is", "love", "dur", "##ing", "the"]


def _as_lists(outputs):
    return [array.tolist() for array in outputs]


def test_wordpiece_tokenizer_with_offsets_gives_byte_offsets_within_each_token():
    # Values recorded from MindSpore 2.10.
    tokenizer = text.WordpieceTokenizer(text.Vocab.from_list(_OFFSET_VOCAB), unknown_token="[UNK]",
                                        max_bytes_per_token=100, with_offsets=True)
    tokens, starts, limits = tokenizer(["my", "favorite", "book", "xyz"])
    assert starts.dtype == np.uint32 and limits.dtype == np.uint32
    assert _as_lists((tokens, starts, limits)) == [
        ["my", "favor", "##ite", "book", "[UNK]"], [0, 0, 5, 0, 0], [2, 5, 8, 4, 3]]
    assert _as_lists(tokenizer(np.array("during"))) == [["dur", "##ing"], [0, 3], [3, 6]]


def test_wordpiece_tokenizer_with_offsets_in_a_pipeline():
    # MindSpore 2.10's WordpieceTokenizer docstring example (in order: its seed draws the same first row).
    vocab = text.Vocab.from_list(_OFFSET_VOCAB)
    dataset = ds.NumpySlicesDataset(data=["happy", "birthday", "to", "you"], column_names=["text"], shuffle=False)
    tokenizer = text.WordpieceTokenizer(vocab=vocab, unknown_token="[UNK]", max_bytes_per_token=100,
                                        with_offsets=True)
    dataset = dataset.map(operations=tokenizer, input_columns=["text"],
                          output_columns=["token", "offsets_start", "offsets_limit"])
    item = next(dataset.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert [item[name].tolist() for name in ("token", "offsets_start", "offsets_limit")] == [["[UNK]"], [0], [5]]


def test_bert_tokenizer_with_offsets_gives_byte_offsets_in_the_text():
    # Values recorded from MindSpore 2.10.
    tokenizer = text.BertTokenizer(vocab=text.Vocab.from_list(_OFFSET_VOCAB), with_offsets=True)
    assert _as_lists(tokenizer("my favorite book, during  THE x")) == [
        ["my", "favor", "##ite", "book", "[UNK]", "dur", "##ing", "[UNK]", "[UNK]"],
        [0, 3, 8, 12, 16, 18, 21, 26, 30], [2, 8, 11, 16, 17, 21, 24, 29, 31]]
    assert _as_lists(tokenizer("")) == [[""], [0], [0]]
    plain = text.BertTokenizer(vocab=text.Vocab.from_list(_OFFSET_VOCAB))("my favorite book")
    assert plain.tolist() == ["my", "favor", "##ite", "book"]

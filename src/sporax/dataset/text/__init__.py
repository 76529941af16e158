"""``mindspore.dataset.text``: vocabularies, tokenizers and string transforms (pure Python/NumPy)."""
from sporax.dataset.text.ops import (AddToken, CaseFold, Lookup, Ngram, NormalizeForm, NormalizeUTF8, RegexReplace,
                                     SlidingWindow, ToNumber, Truncate, TruncateSequencePair, to_bytes, to_str)
from sporax.dataset.text.tokenizers import (BasicTokenizer, BertTokenizer, PythonTokenizer, RegexTokenizer,
                                            UnicodeCharTokenizer, UnicodeScriptTokenizer, WhitespaceTokenizer,
                                            WordpieceTokenizer)
from sporax.dataset.text.embeddings import CharNGram, FastText, GloVe, ToVectors, Vectors
from sporax.dataset.text.jieba_tokenizer import JiebaMode, JiebaTokenizer
from sporax.dataset.text.sentencepiece_ops import (SentencePieceModel, SentencePieceTokenizer, SentencePieceVocab,
                                                   SPieceTokenizerLoadType, SPieceTokenizerOutType)
from sporax.dataset.text.vocab import Vocab
from sporax.dataset.text.wikipedia import FilterWikipediaXML

__all__ = ["AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "Lookup", "Ngram", "NormalizeForm",
           "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SlidingWindow", "ToNumber",
           "Truncate", "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "Vocab",
           "WhitespaceTokenizer", "WordpieceTokenizer", "to_bytes", "to_str", "CharNGram", "FastText", "GloVe",
           "ToVectors", "Vectors", "JiebaMode", "JiebaTokenizer", "FilterWikipediaXML",
           "SentencePieceModel", "SentencePieceTokenizer", "SentencePieceVocab", "SPieceTokenizerLoadType",
           "SPieceTokenizerOutType"]

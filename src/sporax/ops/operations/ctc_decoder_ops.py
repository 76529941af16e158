"""``ops.CTCGreedyDecoder``: the Primitive face of the ``ctc_greedy_decoder`` op-table entry."""
from sporax.ops.faces import primitive_class
from sporax.ops.functional.ctc_decoding import ctc_greedy_decoder
from sporax.ops.op_table import TABLE

CTCGreedyDecoder = primitive_class(TABLE["ctc_greedy_decoder"], __name__)

__all__ = ["CTCGreedyDecoder", "ctc_greedy_decoder"]

"""f-string text of tuples, lists and dicts, and ordering comparisons of tuples and lists, in compiled code as
MindSpore 2.10's graph gives them (graph.control_flow.formatted_strings, sequences.check_order). Every expected
value was printed by MindSpore 2.10 (CPU, ``ms.jit``)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


def _x():
    return Tensor(np.array([1.0], np.float32))


def test_an_f_string_writes_strings_in_sequences_without_quotes():
    @ms.jit
    def texts(x):
        return f"{['a', 1]}", f"{('a',)}", f"{(1,)}", f"{('a', 'b')}", f"{[('a', [1, 'b'])]}", f"{x.shape}"

    # MindSpore 2.10: ('[a, 1]', '(a)', '(1)', '(a, b)', '[(a, [1, b])]', '(1)')
    assert texts(_x()) == ("[a, 1]", "(a)", "(1)", "(a, b)", "[(a, [1, b])]", "(1)")


def test_an_f_string_quotes_dict_keys_only_and_str_format_keeps_python_text():
    @ms.jit
    def texts(x):
        d = {"a": ["b", "c"], 1: "z"}
        t = ("p",)
        return f"{d}", f"{t}", f"v={t!r}", str(("a", 1)), "{}".format(("a", 1)), "%s" % (("a", 1),), str(["a"])

    # MindSpore 2.10: ("{'a': [b, c], '1': z}", '(p)', 'v=(p)', "('a', 1)", "('a', 1)", "('a', 1)", "['a']")
    assert texts(_x()) == ("{'a': [b, c], '1': z}", "(p)", "v=(p)", "('a', 1)", "('a', 1)", "('a', 1)", "['a']")


@pytest.mark.parametrize("op, left, right, name, got", [
    ("lt", ("b", 1), ("a", 2), "tuple_lt", "b"),
    ("le", (1, "x"), (1, "y"), "tuple_le", "x"),
    ("gt", (1, "x"), (1, "y"), "tuple_greater_than", "x"),
    ("ge", [2, "x"], [2, "y"], "list_greater_equal", "x"),
    ("lt", [1, "a"], [1, "b"], "list_lt", "a"),
    ("lt", (1, None), (1, 2), "tuple_lt", "None"),
])
def test_ordering_sequences_that_reach_a_string_or_none_raises(op, left, right, name, got):
    @ms.jit
    def ordered(x):
        if op == "lt":
            return left < right
        if op == "le":
            return left <= right
        if op == "gt":
            return left > right
        return left >= right

    # MindSpore 2.10: TypeError "For op 'tuple_lt' input must be [int32, int64, float32, float64, bool], but got b"
    with pytest.raises(TypeError, match=f"For op '{name}' input must be \\[int32, int64, float32, float64, bool\\], "
                                        f"but got {got}"):
        ordered(_x())


def test_ordering_decided_before_a_string_and_equality_are_python_results():
    @ms.jit
    def ordered(x):
        return ((1, "a") <= (2, "b"), (1, (2,)) > (0, (1,)), (1, 2) < (1, 3.5), (True,) < (2,),
                ("a",) == ("a",), ("a", 1) != ("b", 1), (1, x) < (2, x))

    # MindSpore 2.10: (True, True, True, True, True, True, True)
    assert ordered(_x()) == (True,) * 7

"""Members MindSpore 2.10's graph compiler refuses to read in compiled code: a Parameter's ``name``,
``requires_grad`` and ``layerwise_parallel``, a Cell's ``trainable_params`` and ``get_parameters``.

``rewrite_member_reads`` turns each read of such an attribute into ``runtime.graph_member(value, "name")``;
``graph_member`` raises MindSpore's RuntimeError when ``value`` is a Parameter (its strict-mode AttributeError below
the LAX syntax level) or a Cell, else reads it.
"""
import ast

from sporax.core.context import LAX, jit_syntax_level
from sporax.core.parameter import Parameter
from sporax.state.discovery import is_cell

_PARAMETER_MEMBERS = frozenset(("name", "requires_grad", "layerwise_parallel"))
_CELL_METHODS = frozenset(("trainable_params", "get_parameters"))


def graph_member(value, attribute):
    """``value.attribute`` in compiled code, refused as MindSpore's graph refuses it (read it in __init__)."""
    if attribute in _PARAMETER_MEMBERS and isinstance(value, Parameter):
        if jit_syntax_level() != LAX:  # below LAX: its strict-mode AttributeError, the Parameter typed as a Ref
            raise AttributeError(
                f"In JIT strict mode, cannot get attributes {attribute} or the Ref[Tensor[{value.dtype}]] object has "
                f"no attribute: '{attribute}'. Set the environment variable MS_DEV_JIT_SYNTAX_LEVEL to 2 (or the "
                "context's or the Cell's jit_syntax_level to LAX) to enable the JIT lax mode and support the current "
                "syntax.")
        raise RuntimeError(
            f"Failed to compile in GRAPH_MODE because the 'Parameter' object's method '{attribute}' is not supported "
            f"in 'construct' or function with @jit decorator. Try to use the 'Parameter.{attribute}' externally such "
            "as initialized in the method '__init__' before assigning.")
    if attribute in _CELL_METHODS and is_cell(value):
        method = f"mindspore.nn.cell.Cell.{attribute}"
        raise RuntimeError(
            f"Failed to compile in GRAPH_MODE because the method or function '{method}' is not supported in "
            f"'construct' or function with @jit decorator. Try to use the method or function '{method}' externally "
            "such as initialized in the method '__init__' before assigning.")
    return getattr(value, attribute)


def rewrite_attribute_reads(node, runtime_name, helper, wanted):
    """Turn each read ``value.name`` in function ``node`` for which ``wanted(attribute_node)`` holds into
    ``runtime.helper(value, "name")``; returns the rewritten names."""
    rewritten = []

    class Reads(ast.NodeTransformer):
        def visit_Attribute(self, attribute):
            self.generic_visit(attribute)
            if isinstance(attribute.ctx, ast.Load) and wanted(attribute):
                rewritten.append(attribute.attr)
                return ast.copy_location(ast.Call(
                    func=ast.Attribute(value=ast.Name(id=runtime_name, ctx=ast.Load()), attr=helper, ctx=ast.Load()),
                    args=[attribute.value, ast.Constant(value=attribute.attr)], keywords=[]), attribute)
            return attribute

    node.body = [Reads().visit(statement) for statement in node.body]
    return rewritten


def rewrite_member_reads(node, runtime_name):
    """Route the reads of the refused members in function ``node`` through ``graph_member``; whether any was."""
    return bool(rewrite_attribute_reads(node, runtime_name, "graph_member",
                                        lambda attribute: attribute.attr in _PARAMETER_MEMBERS | _CELL_METHODS))

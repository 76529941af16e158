"""The MindSpore import hook: every seed script's imports resolve, aliases hold sporax's objects."""
import ast
import importlib
import importlib.util
import os
import sys
import types

import pytest

import sporax
from sporax.compat import ALIASES, AliasModule, install, is_installed, uninstall
from sporax.compat.table import NAMES

SEEDS = os.path.join(os.path.dirname(__file__), "..", "fixtures", "seeds")


def _mindspore_imports():
    """Every distinct `import mindspore...` / `from mindspore... import ...` in the seed scripts."""
    statements = {}
    for filename in sorted(os.listdir(SEEDS)):
        if not filename.endswith(".py"):
            continue
        with open(os.path.join(SEEDS, filename), encoding="utf-8") as file:
            tree = ast.parse(file.read(), filename)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module]
            else:
                continue
            if any(module == "mindspore" or module.startswith("mindspore.") for module in modules):
                statements.setdefault(ast.unparse(node), (filename, node))
    return statements


SEED_IMPORTS = _mindspore_imports()


@pytest.fixture
def hook():
    """The finder installed for one test; afterwards no alias module is left behind."""
    was_installed = is_installed()
    install()
    yield
    if not was_installed:
        uninstall()


def test_the_seed_scripts_were_found():
    assert len(SEED_IMPORTS) >= 20
    assert "import mindspore.dataset.vision.c_transforms as CV" in SEED_IMPORTS


def _not_built_yet(error):
    """True for the hook's own 'sporax does not provide it yet' errors (work of other parts)."""
    return "sporax does not provide" in str(error)


@pytest.mark.parametrize("statement", sorted(SEED_IMPORTS))
def test_seed_import_resolves(hook, statement):
    filename, node = SEED_IMPORTS[statement]
    # Every module path the seeds import is a row of the table: that part is the hook's job.
    if isinstance(node, ast.Import):
        paths = [alias.name for alias in node.names]
    else:
        paths = [node.module]
    for path in paths:
        assert path in ALIASES, f"{filename}: {path} is not in sporax.compat.table.ALIASES"
    namespace = {}
    code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
    try:
        exec(code, namespace)
    except ImportError as error:
        # A row whose sporax module or name another part has not built yet.
        if _not_built_yet(error) or "cannot import name" in str(error):
            pytest.xfail(f"{filename}: {statement}: {error}")
        raise
    if isinstance(node, ast.Import):
        for alias in node.names:
            bound = namespace[alias.asname or alias.name.split(".")[0]]
            assert isinstance(bound, AliasModule)
            if alias.asname:
                assert bound.__name__ == alias.name
    else:
        module = importlib.import_module(node.module)
        canonical = importlib.import_module(ALIASES[node.module])
        for alias in node.names:
            value = namespace[alias.asname or alias.name]
            assert value is getattr(module, alias.name)
            child = f"{node.module}.{alias.name}"
            if child in ALIASES:
                assert isinstance(value, AliasModule) and value.__name__ == child
            else:
                assert value is getattr(canonical, alias.name)


@pytest.mark.parametrize("path", sorted(ALIASES))
def test_alias_holds_the_canonical_objects(hook, path):
    canonical_name = ALIASES[path]
    alias = importlib.import_module(path)
    canonical = importlib.import_module(canonical_name)
    assert isinstance(alias, AliasModule) and alias.__name__ == path
    assert sys.modules[path] is alias
    children = {key.rpartition(".")[2] for key in ALIASES if key.rpartition(".")[0] == path}
    # An explicit NAMES row wins over the canonical module's own name (``nn.layer.CosineSimilarity`` is a Cell
    # where ``nn.CosineSimilarity`` is the metric); tested with the rows.
    overridden = set(NAMES.get(path, ()))
    for name, value in vars(canonical).items():
        if name.startswith("_") or name in children or name in overridden:
            continue
        assert getattr(alias, name) is value, f"{path}.{name}"


def test_every_row_has_its_parent_in_the_table():
    for path in ALIASES:
        parent = path.rpartition(".")[0]
        assert parent == "" or parent in ALIASES, path
        assert ALIASES[path] == "sporax" or ALIASES[path].startswith("sporax."), path


def test_import_forms(hook):
    import mindspore
    import mindspore.common.dtype as mstype
    import mindspore.nn.wrap.cell_wrapper as cell_wrapper
    from mindspore import ops
    from mindspore.common import dtype as mstype_again
    from mindspore.common.initializer import Normal, One
    from mindspore.common.tensor import Tensor

    import sporax.core.dtype
    import sporax.core.initializer
    import sporax.nn

    assert mindspore.Tensor is sporax.Tensor is Tensor
    assert mindspore.float32 is sporax.core.dtype.float32 is mstype.float32
    assert mstype_again is mstype
    assert Normal is sporax.core.initializer.Normal and One is sporax.core.initializer.One
    assert ops is mindspore.ops and ops.Primitive is sporax.ops.Primitive
    assert mindspore.nn.wrap.cell_wrapper is cell_wrapper
    assert cell_wrapper._sporax_canonical is sporax.nn
    # The MindSpore release sporax follows (libraries branch on it); sporax keeps its own version.
    assert mindspore.__version__ == sporax.MINDSPORE_VERSION == "2.10.0"
    assert sporax.__version__ != mindspore.__version__


def test_alias_modules_are_not_sporax_modules(hook):
    # Importing a deep path stores each child on its parent; the parents are aliases, so no
    # sporax module gains an alias module (or any attribute) through the hook. The one binding
    # allowed is Python's own for an explicit import of a legacy sporax path (another test's
    # `from sporax.common.initializer import ...` binds `sporax.common` to that path's module).
    import mindspore.nn.wrap.cell_wrapper  # noqa: F401
    import mindspore.train.callback  # noqa: F401
    import sporax.nn

    def explicitly_imported(name, attribute, value):
        return sys.modules.get(f"{name}.{attribute}") is value

    assert "cell_wrapper" not in vars(sporax.nn)
    assert "common" not in vars(sporax) or explicitly_imported("sporax", "common", vars(sporax)["common"])
    for name, module in list(sys.modules.items()):
        if name == "sporax" or name.startswith("sporax."):
            for attribute, value in list(vars(module).items()):
                if isinstance(value, AliasModule):
                    assert explicitly_imported(name, attribute, value), f"{name}.{attribute}"


def test_star_import_takes_the_public_names(hook):
    namespace = {}
    exec("from mindspore.common.dtype import *", namespace)
    assert namespace["float32"] is sporax.float32
    assert "_BY_NAME" not in namespace


def test_unknown_path_names_itself(hook):
    with pytest.raises(ModuleNotFoundError) as raised:
        import mindspore.not_a_module  # noqa: F401
    assert raised.value.name == "mindspore.not_a_module"
    assert "No module named 'mindspore.not_a_module'" in str(raised.value)
    assert "sporax does not provide it yet" in str(raised.value)


def test_row_whose_sporax_module_is_missing_says_so(hook, monkeypatch):
    monkeypatch.setitem(ALIASES, "mindspore.future_row", "sporax.not_built")
    with pytest.raises(ModuleNotFoundError) as raised:
        import mindspore.future_row  # noqa: F401
    assert raised.value.name == "mindspore.future_row"
    assert "its sporax module 'sporax.not_built' is not available" in str(raised.value)


def test_unknown_attribute_says_it_is_not_provided(hook):
    import mindspore

    with pytest.raises(AttributeError, match="sporax does not provide mindspore.no_such_name yet"):
        mindspore.no_such_name  # noqa: B018
    assert not hasattr(mindspore, "no_such_name")


def test_dir_lists_canonical_names_and_sub_paths(hook):
    import mindspore.nn

    names = dir(mindspore.nn)
    assert "wrap" in names and "cell" in names
    assert set(dir(sporax.nn)) - {"__builtins__"} <= set(names) | {"__file__", "__cached__"}


def test_install_is_idempotent_and_uninstall_removes_aliases():
    was_installed = is_installed()
    install()
    install()
    assert sum(1 for finder in sys.meta_path if type(finder).__name__ == "MindSporeAliasFinder") == 1
    import mindspore  # noqa: F401

    uninstall()
    assert not is_installed()
    assert "mindspore" not in sys.modules
    if was_installed:
        install()


def test_install_refuses_when_a_real_mindspore_is_loaded(monkeypatch):
    monkeypatch.setitem(sys.modules, "mindspore", types.ModuleType("mindspore"))
    with pytest.raises(RuntimeError, match="real 'mindspore' module is already imported"):
        install()


def test_no_mindspore_package_on_disk():
    # Without the hook nothing named mindspore is importable from sporax's installation:
    # a real MindSpore in the same environment would otherwise be shadowed.
    was_installed = is_installed()
    uninstall()
    try:
        spec = importlib.util.find_spec("mindspore")
    finally:
        if was_installed:
            install()
    sporax_root = os.path.dirname(os.path.dirname(os.path.abspath(sporax.__file__)))
    assert spec is None or not os.path.abspath(spec.origin).startswith(sporax_root)
    assert not os.path.exists(os.path.join(sporax_root, "mindspore"))


def test_tensor_class_carries_mindspore_path_while_installed(hook):
    import pickle

    import numpy as np

    mindspore = importlib.import_module("mindspore")
    tensor = mindspore.Tensor(np.arange(3.0, dtype=np.float32))
    assert str(type(tensor)) == "<class 'mindspore.common.tensor.Tensor'>"
    data = pickle.dumps(tensor)
    uninstall()
    try:
        assert str(type(tensor)) == "<class 'sporax.core.tensor.Tensor'>"
        # A pickle written under the hook loads without it: it names a sporax function, not the class path.
        np.testing.assert_array_equal(pickle.loads(data).asnumpy(), [0.0, 1.0, 2.0])
    finally:
        install()


def test_mindspore_boost_serves_gradient_accumulation(hook):
    # mindcv: `from mindspore import boost` and `from mindspore.boost.grad_accumulation import ...`.
    from mindspore import boost
    from mindspore.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op

    import sporax.nn.wrap.gradient_accumulation as canonical

    assert boost.GradientAccumulation is canonical.GradientAccumulation
    assert gradient_accumulation_op is canonical.gradient_accumulation_op
    assert gradient_clear_op is canonical.gradient_clear_op
    from mindspore.boost.boost_cell_wrapper import BoostTrainOneStepCell

    import sporax.nn.boost as canonical_boost

    assert boost.AutoBoost is canonical_boost.AutoBoost
    assert BoostTrainOneStepCell is canonical_boost.BoostTrainOneStepCell
    with pytest.raises(AttributeError, match="does not provide mindspore.boost.GroupLossScaleManager"):
        boost.GroupLossScaleManager  # noqa: B018 - the grouped loss scale (Ascend's) is not provided


def test_lazy_inline_at_mindspore_graph_path(hook):
    # MindSpore 2.10's Cell.offload docstring imports it from mindspore.graph.lazy_inline (the same object as
    # mindspore.lazy_inline there).
    import mindspore
    from mindspore.graph.lazy_inline import lazy_inline

    import sporax.graph

    assert lazy_inline is mindspore.lazy_inline is sporax.graph.lazy_inline


def test_dataset_classes_carry_mindspore_paths_while_installed(hook):
    # recorded from MindSpore 2.10: type() of a source, a pipeline node, an iterator and a sampler
    import numpy as np

    dataset = importlib.import_module("mindspore.dataset")
    source = dataset.NumpySlicesDataset({"x": np.arange(4)}, shuffle=False)
    mapped = source.map(lambda x: x, "x")
    expected = ["<class 'mindspore.dataset.engine.datasets_user_defined.NumpySlicesDataset'>",
                "<class 'mindspore.dataset.engine.datasets.MapDataset'>",
                "<class 'mindspore.dataset.engine.iterators.TupleIterator'>",
                "<class 'mindspore.dataset.engine.samplers.RandomSampler'>",
                "<class 'mindspore.dataset.engine.datasets_vision.MnistDataset'>",
                "<class 'mindspore.dataset.engine.datasets_standard_format.MindDataset'>"]
    kinds = [type(source), type(mapped), type(mapped.create_tuple_iterator()), dataset.RandomSampler,
             dataset.MnistDataset, dataset.MindDataset]
    assert [str(kind) for kind in kinds] == expected
    uninstall()
    try:
        assert str(type(mapped)) == "<class 'sporax.dataset.engine.mapping.MapDataset'>"
    finally:
        install()

"""The internal steps of MindSpore's ``Dataset`` that code reaches into: building the tree a
pipeline runs (``create_ir_tree``, ``parse_tree`` and its ``pre_parse``/``post_parse``/
``iterator_bootstrap``/``pre_process`` hooks), ``input_indexs``, ``copy_batch_size``,
``get_sync_notifiers`` and the experimental ``send``/``recv``.

sporax runs the node graph itself (there is no separate IR), so "the IR tree" is a private deep
copy of the graph, checked to be a tree and prepared the way MindSpore prepares its copy.
"""
import copy
import weakref


def link_children(node, children):
    """Make ``children`` the inputs of ``node``, each recording ``node`` as one of its consumers.

    MindSpore records every node built on a dataset, in any pipeline, as its consumer: a pipeline
    through a node with two consumers is not a tree and cannot run. Consumers are held weakly, so
    a node nobody keeps (a discarded ``d.batch(1)``, sporax's own passing ``take``) stops counting.
    """
    node.children = list(children)
    for child in node.children:
        # (a user's Dataset subclass may skip Dataset.__init__)
        child.__dict__.setdefault("_consumers", []).append(weakref.ref(node))


def check_is_tree(root):
    """Raise MindSpore's ValueError if a node under ``root`` (not ``root`` itself) has two consumers."""
    for node in root._nodes():
        if node is not root and sum(consumer() is not None for consumer in getattr(node, "_consumers", ())) > 1:
            raise ValueError("The data pipeline is not a tree (i.e., one node has 2 consumers)")


def copy_graph(node, copies=None):
    """A copy of every node of the graph under ``node`` (a node shared in the graph stays
    shared in the copy); the nodes' data (arrays, files, sources' callables) is shared, not
    copied. ``copy.deepcopy`` of a Dataset is this copy."""
    copies = {} if copies is None else copies
    if id(node) not in copies:
        twin = copy.copy(node)
        copies[id(node)] = twin
        link_children(twin, [copy_graph(child, copies) for child in node.children])
    return copies[id(node)]


class PipelineInternals:
    """Mixed into :class:`Dataset`; see the module notes."""

    _input_indexs = ()

    def __copy__(self):
        # A copy is a new node: it starts with no consumers of its own (it does not share the list).
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._consumers = []
        return twin

    # -- the tree a pipeline runs -------------------------------------------------------------------
    def create_ir_tree(self, getter_mode=False):
        """A runnable copy of the pipeline: (its root, the same root).

        MindSpore returns (IR root, copied API root); sporax runs the copied node graph itself,
        so both are the copy, parsed by ``parse_tree``.

        Args:
            getter_mode (bool, optional): prepare for a size/shape query (one worker, no
                processes). Default False.
        """
        dataset = self.pre_process(copy_graph(self))
        return dataset.parse_tree(getter_mode), dataset

    def pre_process(self, dataset):
        """Prepare ``dataset`` before parsing (each child in turn); the batch MindSpore inserts
        after a GeneratorDataset with a ``batch_sampler`` is part of that source here."""
        for child in dataset.children:
            self.pre_process(child)
        return dataset

    def parse_tree(self, getter_mode=False):
        """Check the pipeline is a tree and prepare every node (``pre_parse``,
        ``iterator_bootstrap``, ``post_parse``); returns the root.

        Raises:
            ValueError: if a node feeds two consumers.
        """
        check_is_tree(self)
        return self._parse_node(getter_mode)

    def _parse_node(self, getter_mode):
        for child in self.children:
            child._parse_node(getter_mode)
        self.pre_parse(getter_mode)
        self.iterator_bootstrap()
        return self.post_parse(self)

    def pre_parse(self, getter_mode):
        """Before a node is parsed: in getter mode it runs with one worker and no processes."""
        if getter_mode:
            if hasattr(self, "python_multiprocessing"):
                self.python_multiprocessing = False
            if hasattr(self, "num_parallel_workers"):
                self.num_parallel_workers = 1

    def post_parse(self, ir_node):
        """After a node is parsed; its cache and worker count already live on the node here."""
        return ir_node

    def iterator_bootstrap(self):
        """Per-iterator set-up of a node (none is needed by the nodes sporax has)."""

    # -- attributes a training loop reads -------------------------------------------------------------
    @property
    def input_indexs(self):
        """The column order the network takes in sink mode: this node's setting, else its first
        child's that has one (``()`` when none is set)."""
        if self._input_indexs != ():
            return self._input_indexs
        for child in self.children:
            if child.input_indexs != ():
                return child.input_indexs
        return ()

    @input_indexs.setter
    def input_indexs(self, value):
        self._input_indexs = value

    def copy_batch_size(self, value):
        """Record the batch size a copied pipeline keeps: ``get_batch_size`` of this node then
        reports ``value`` (Model's data sink copies it onto the dataset it builds)."""
        # an instance attribute shadows every node kind's own get_batch_size (batch, source...)
        self.get_batch_size = lambda: value

    def get_sync_notifiers(self):
        """{condition name: release function} of the pipeline's ``sync_wait`` nodes."""
        notifiers = {}
        for node in self._nodes():
            if hasattr(node, "condition_name") and hasattr(node, "update"):
                notifiers[node.condition_name] = node.update
        return notifiers

    # -- experimental communication ---------------------------------------------------------------------
    def send(self, tensor=None, dst=0, group=None):
        """MindSpore's experimental dataset send to other ranks (``mint.distributed``).

        Raises:
            NotImplementedError: always; see the message.
        """
        raise NotImplementedError(
            "Dataset.send sends rows to other ranks through MindSpore's mint.distributed "
            "point-to-point operations, which sporax's data pipeline (NumPy only, no device "
            "runtime) does not have. Shard the data instead (num_shards/shard_id), or exchange "
            "Tensors with sporax.ops/communication collectives in the training step.")

    def recv(self, src=0, group=None):
        """MindSpore's experimental dataset receive from other ranks (``mint.distributed``).

        Raises:
            NotImplementedError: always; see ``send``.
        """
        raise NotImplementedError(
            "Dataset.recv receives rows from other ranks through MindSpore's mint.distributed "
            "point-to-point operations, which sporax's data pipeline (NumPy only, no device "
            "runtime) does not have. Shard the data instead (num_shards/shard_id).")

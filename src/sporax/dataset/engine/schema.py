"""``Schema``: column names, types and shapes of a dataset (used by GeneratorDataset)."""
import json

import numpy as np


class Schema:
    """A list of columns with a type and optional shape; can be read from / written to JSON."""

    def __init__(self, schema_file=None):
        self.columns = []
        self.dataset_type = ""
        self.num_rows = 0
        if schema_file is not None:
            with open(schema_file) as handle:
                self.from_json(json.load(handle))

    def add_column(self, name, de_type, shape=None):
        """Add column ``name`` of type ``de_type`` (a dtype or a name like 'int32')."""
        if not isinstance(name, str) or not name:
            raise TypeError("Schema.add_column: name must be a non-empty str.")
        self.columns.append({"name": name, "type": _type_name(de_type),
                             "shape": None if shape is None else list(shape)})

    def parse_columns(self, columns):
        """Replace the columns from a dict {name: {"type":..., "shape":...}} or a list of dicts."""
        self.columns = []
        items = columns.items() if isinstance(columns, dict) else \
            [(c["name"], c) for c in columns]
        for name, spec in items:
            self.add_column(name, spec["type"], spec.get("shape"))

    def from_json(self, json_obj):
        """Load from a parsed JSON object with a "columns" entry."""
        self.parse_columns(json_obj["columns"])
        self.dataset_type = json_obj.get("datasetType", "")
        self.num_rows = json_obj.get("numRows", 0)

    def to_json(self):
        """The schema as a JSON string."""
        # MindSpore 2.10's layout: a list of {name, rank, shape, type} with sorted keys; a column
        # added without a shape has rank 1 and no "shape" entry.
        columns = []
        for column in self.columns:
            entry = {"name": column["name"], "type": column["type"],
                     "rank": 1 if column["shape"] is None else len(column["shape"])}
            if column["shape"] is not None:
                entry["shape"] = column["shape"]
            columns.append(entry)
        return json.dumps({"columns": columns}, indent=2, sort_keys=True)

    def columns_and_types(self):
        """(names, NumPy dtypes) of the columns."""
        return [c["name"] for c in self.columns], [np.dtype(c["type"]) for c in self.columns]

    def __str__(self):
        return self.to_json()


def _type_name(de_type):
    if isinstance(de_type, str):
        return str(np.dtype(de_type))
    try:
        return str(np.dtype(de_type))
    except TypeError:
        from sporax.core.dtype import to_numpy_dtype

        return str(np.dtype(to_numpy_dtype(de_type)))

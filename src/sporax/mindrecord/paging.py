"""``MindPage``: MindRecord records grouped by the values of an index field, read page by page."""
import json

from sporax.mindrecord.errors import MRMDefineCategoryError, ParamTypeError, ParamValueError
from sporax.mindrecord.index import read_index_rows
from sporax.mindrecord.reader import open_shards


class MindPage:
    """Read MindRecord files by category: the distinct values of one index field.

    Args:
        file_name (Union[str, list[str]]): one file (every shard of its set is read) or a list.
        num_consumer (int, optional): reader threads in MindSpore; checked, then not needed
            (reading is sequential here). Default 4.

    Examples:
        >>> from sporax.mindrecord import MindPage
        >>> reader = MindPage("/path/to/data.mindrecord")  # doctest: +SKIP
        >>> reader.category_field = "label"  # doctest: +SKIP
        >>> reader.read_at_page_by_name("1", 0, 10)  # doctest: +SKIP
    """

    def __init__(self, file_name, num_consumer=4):
        if not isinstance(num_consumer, int) or isinstance(num_consumer, bool) or num_consumer < 1:
            raise ParamValueError(f"Parameter num_consumer: {num_consumer!r} should be an int "
                                  "of at least 1.")
        self._shards = open_shards("MindPage", file_name, RuntimeError)
        header = self._shards[0].header
        self._index_fields = list(header.index_fields)
        self._category_field = None
        self._categories = None

    @property
    def candidate_fields(self):
        """The index fields records can be grouped by."""
        return list(self._index_fields)

    @property
    def category_field(self):
        """The field whose values are the categories (set it before reading)."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field):
        if not isinstance(category_field, str):
            raise ParamTypeError("category_field", "str")
        if category_field not in self._index_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate category "
                                         "field.")
        self._category_field = category_field
        self._categories = None

    def _grouped(self):
        """(sorted distinct values, {value: [(shard, row), ...]} in file order)."""
        if self._category_field is None:
            raise MRMDefineCategoryError("No category field is set; set MindPage.category_field "
                                         f"to one of {self._index_fields} first.")
        if self._categories is None:
            position = self._index_fields.index(self._category_field)
            members = {}
            for shard in self._shards:
                for row, values in enumerate(read_index_rows(shard.path, self._index_fields)):
                    members.setdefault(values[position], []).append((shard, row))
            self._categories = (sorted(members), members)
        return self._categories

    def read_category_info(self):
        """The categories as a JSON string: id, name and record count of each."""
        names, members = self._grouped()
        categories = [{"count": len(members[name]), "id": i, "name": str(name)}
                      for i, name in enumerate(names)]
        return json.dumps({"categories": categories, "key": f"{self._category_field}_0"},
                          separators=(",", ":"), sort_keys=True)

    @staticmethod
    def _check_page(page, num_row):
        if not isinstance(page, int) or isinstance(page, bool) or page < 0:
            raise ParamValueError("Page should be int and greater than or equal to 0.")
        if not isinstance(num_row, int) or isinstance(num_row, bool) or num_row <= 0:
            raise ParamValueError("num_row should be int and greater than 0.")

    def _page(self, records, page, num_row):
        chosen = records[page * num_row:(page + 1) * num_row]
        return [shard.record(row) for shard, row in chosen]

    def read_at_page_by_id(self, category_id, page, num_row):
        """Records ``page * num_row`` to ``(page + 1) * num_row`` of category ``category_id``.

        Args:
            category_id (int): the category's id (see ``read_category_info``).
            page (int): the page number, from 0.
            num_row (int): records per page.

        Returns:
            list[dict], the records.
        """
        if not isinstance(category_id, int) or isinstance(category_id, bool):
            raise ParamValueError("Category id should be int.")
        self._check_page(page, num_row)
        names, members = self._grouped()
        if not 0 <= category_id < len(names):
            raise RuntimeError(f"Invalid data, category_id: {category_id} must be in the range "
                               f"[0, {len(names)}).")
        return self._page(members[names[category_id]], page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row):
        """Records of the category named ``category_name`` on page ``page``.

        Args:
            category_name (str): the category's name (the field value as a string).
            page (int): the page number, from 0.
            num_row (int): records per page.

        Returns:
            list[dict], the records.
        """
        if not isinstance(category_name, str):
            raise ParamValueError("Category name should be str.")
        self._check_page(page, num_row)
        names, members = self._grouped()
        by_name = {str(name): name for name in names}
        if category_name not in by_name:
            return []
        return self._page(members[by_name[category_name]], page, num_row)

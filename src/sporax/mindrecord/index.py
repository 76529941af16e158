"""The SQLite index beside each shard (``<shard>.db``), written and read with ``sqlite3``.

Table INDEXES has one row per record: ROW_ID, the raw page id and the record's byte range
in it, ROW_GROUP_ID (the blob page's number among blob pages), the blob page id and range,
then for each index field ``f`` a pair ``INC_k INT, f_0 <INTEGER|REAL|TEXT>``. Table
SHARD_NAME holds the shard file's base name. The CREATE statements match MindSpore's text.
"""
import os
import sqlite3

from sporax.mindrecord.header import DamagedFileError

_COLUMNS = ("ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL, "
            "PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, "
            "ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
            "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL")
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
              "string": "TEXT"}
POSITION_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END",
                    "ROW_GROUP_ID", "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def write_index(path, fields, index_fields, rows):
    """Write ``path + '.db'``; ``rows`` are (positions tuple of 8, index values list)."""
    db_path = path + ".db"
    if os.path.exists(db_path):
        os.remove(db_path)
    extra = "".join(f",INC_{k} INT, {name}_0 {_SQL_TYPES[fields[name]['type']]}"
                    for k, name in enumerate(index_fields))
    keys = "".join(f",INC_{k}" for k in range(len(index_fields)))
    connection = sqlite3.connect(db_path)
    try:
        connection.execute(f"CREATE TABLE INDEXES(  {_COLUMNS}{extra}, PRIMARY KEY(ROW_ID{keys}))")
        connection.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        connection.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (os.path.basename(path),))
        width = len(POSITION_COLUMNS) + 2 * len(index_fields)
        marks = ",".join("?" * width)
        connection.executemany(
            f"INSERT INTO INDEXES VALUES ({marks})",
            [tuple(positions) + tuple(v for value in values for v in (0, value))
             for positions, values in rows])
        connection.commit()
    finally:
        connection.close()


def read_positions(path):
    """Per record of shard ``path``: the 8 position columns, ordered by ROW_ID."""
    db_path = path + ".db"
    if not os.path.isfile(db_path):
        raise DamagedFileError(f"Invalid file, the index file {db_path} of MindRecord file "
                               f"{path} does not exist; a MindRecord shard needs its .db file "
                               "beside it (copy it too, or rewrite the file).")
    try:
        connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            names = connection.execute("SELECT NAME FROM SHARD_NAME").fetchall()
            rows = connection.execute(
                f"SELECT {', '.join(POSITION_COLUMNS)} FROM INDEXES ORDER BY ROW_ID").fetchall()
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise DamagedFileError(f"Invalid file, the index file {db_path} of MindRecord file "
                               f"{path} is not a valid MindRecord index ({error}).") from None
    if names and names[0][0] != os.path.basename(path):
        raise DamagedFileError(f"Invalid file, the index file {db_path} belongs to "
                               f"{names[0][0]!r}, not to {os.path.basename(path)!r}.")
    return rows



def read_index_rows(path, index_fields):
    """Per record of shard ``path`` (ROW_ID order): the values of ``index_fields``."""
    if not index_fields:
        return [[] for _ in read_positions(path)]
    columns = ", ".join(f"{name}_0" for name in index_fields)
    connection = sqlite3.connect(f"file:{path}.db?mode=ro", uri=True)
    try:
        rows = connection.execute(f"SELECT {columns} FROM INDEXES ORDER BY ROW_ID").fetchall()
    finally:
        connection.close()
    return [list(row) for row in rows]

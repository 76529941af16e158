"""MindRecord's exception types (``mindspore.mindrecord.*Error``), with MindSpore's names.

Each carries an ``error_msg`` and a numeric ``error_code`` (the exception's number in
MindSpore's table, 1-99 common, 100-199 shard level, 200-299 file level, packed with the
runtime/type/level/system fields MindSpore packs).
"""

_NUMBERS = {
    "UnknownError": (0, "Unknown Error."),
    "ParamTypeError": (1, "Param type is error."),
    "ParamValueError": (2, "Param value is error."),
    "ParamMissError": (3, "Param missing."),
    "PathNotExistsError": (4, "Path does not exist."),
    "DbConnectionError": (5, "Db connection is error."),
    "MRMOpenError": (100, "MindRecord File could not open successfully."),
    "MRMOpenForAppendError": (101, "MindRecord File could not open successfully for append."),
    "MRMInvalidPageSizeError": (102, "Failed to set page size."),
    "MRMInvalidHeaderSizeError": (103, "Failed to set header size."),
    "MRMSetHeaderError": (104, "Failed to set header."),
    "MRMWriteDatasetError": (105, "Failed to write dataset."),
    "MRMCommitError": (107, "Failed to commit."),
    "MRMLaunchError": (108, "Failed to launch."),
    "MRMFinishError": (109, "Failed to finish."),
    "MRMCloseError": (110, "Failed to close."),
    "MRMAddSchemaError": (111, "Failed to add schema."),
    "MRMAddIndexError": (112, "Failed to add index field."),
    "MRMBuildSchemaError": (113, "Failed to build schema."),
    "MRMGetMetaError": (114, "Failed to get meta info."),
    "MRMIndexGeneratorError": (115, "Failed to create index generator."),
    "MRMGenerateIndexError": (116, "Failed to generate index."),
    "MRMInitSegmentError": (117, "Failed to initialize segment."),
    "MRMFetchCandidateFieldsError": (118, "Failed to fetch candidate category fields."),
    "MRMReadCategoryInfoError": (119, "Failed to read category information."),
    "MRMFetchDataError": (120, "Failed to fetch data by category."),
    "MRMInvalidSchemaError": (200, "Schema is error."),
    "MRMValidateDataError": (201, "Raw data is valid."),
    "MRMDefineIndexError": (202, "Index field is error."),
    "MRMDefineBlobError": (203, "Blob field is error."),
    "MRMUnsupportedSchemaError": (204, "Schema is not supported."),
    "MRMDefineCategoryError": (205, "Category field is error."),
}
EXCEPTIONS = {name: list(entry) for name, entry in _NUMBERS.items()}
SYS_ID = 0b101010  # MindSpore's system id in packed error codes


class MindRecordException(Exception):
    """Base of MindRecord errors: ``error_msg`` (text) and ``error_code`` (packed number)."""

    def __init__(self, error_msg=None):
        number, base = _NUMBERS.get(type(self).__name__, _NUMBERS["UnknownError"])
        self.error_msg = base if error_msg is None else error_msg
        module = number // 100 + 1
        # runtime host (1), error-code type (1), common level (0), system, module, number
        self.error_code = (1 << 30) | (1 << 28) | (SYS_ID << 17) | (module << 12) | number
        super().__init__(self.error_msg)

    def __str__(self):
        return f"[{type(self).__name__}]: {self.error_msg}"


class UnknownError(MindRecordException):
    """An error of unknown origin."""


class ParamValueError(MindRecordException):
    """A parameter has a bad value."""

    def __init__(self, error_detail):
        super().__init__(f"Invalid parameter value. {error_detail}")


class ParamTypeError(MindRecordException):
    """A parameter has a bad type."""

    def __init__(self, param_name, expected_type):
        super().__init__(f"Invalid parameter type. '{param_name}' expect {expected_type} type.")


class ParamMissError(MindRecordException):
    """A required parameter is missing."""

    def __init__(self, param_name):
        super().__init__(f"Param missing. '{param_name}' is required.")


class PathNotExistsError(MindRecordException):
    """A path does not exist."""

    def __init__(self, error_path):
        super().__init__(f"Invalid path. {error_path}")


class DbConnectionError(MindRecordException):
    """The SQLite index file cannot be used."""

    def __init__(self, error_detail):
        super().__init__(f"Db connection is error. Detail: {error_detail}")


def _simple(name, doc):
    def __init__(self, error_msg=None):
        MindRecordException.__init__(self, error_msg)

    return type(name, (MindRecordException,), {"__doc__": doc, "__init__": __init__})


MRMOpenError = _simple("MRMOpenError", "A MindRecord file could not be opened.")
MRMOpenForAppendError = _simple("MRMOpenForAppendError", "A MindRecord file could not be opened for append.")
MRMInvalidPageSizeError = _simple("MRMInvalidPageSizeError", "The page size is out of range.")
MRMInvalidHeaderSizeError = _simple("MRMInvalidHeaderSizeError", "The header size is out of range.")
MRMSetHeaderError = _simple("MRMSetHeaderError", "The header could not be set.")
MRMWriteDatasetError = _simple("MRMWriteDatasetError", "Rows could not be written.")
MRMCommitError = _simple("MRMCommitError", "The files could not be committed.")
MRMLaunchError = _simple("MRMLaunchError", "The reader could not be launched.")
MRMFinishError = _simple("MRMFinishError", "The reader could not finish.")
MRMCloseError = _simple("MRMCloseError", "A file could not be closed.")
MRMAddSchemaError = _simple("MRMAddSchemaError", "The schema could not be added.")
MRMAddIndexError = _simple("MRMAddIndexError", "An index field could not be added.")
MRMBuildSchemaError = _simple("MRMBuildSchemaError", "The schema could not be built.")
MRMGetMetaError = _simple("MRMGetMetaError", "Meta information could not be read.")
MRMIndexGeneratorError = _simple("MRMIndexGeneratorError", "The index generator could not start.")
MRMGenerateIndexError = _simple("MRMGenerateIndexError", "The index could not be written.")
MRMInitSegmentError = _simple("MRMInitSegmentError", "A segment could not be initialised.")
MRMFetchCandidateFieldsError = _simple("MRMFetchCandidateFieldsError", "Candidate fields could not be read.")
MRMReadCategoryInfoError = _simple("MRMReadCategoryInfoError", "Category information could not be read.")
MRMFetchDataError = _simple("MRMFetchDataError", "Data could not be fetched by category.")


def _detailed(name, prefix, doc):
    def __init__(self, error_detail):
        MindRecordException.__init__(self, f"{prefix} Detail: {error_detail}")

    return type(name, (MindRecordException,), {"__doc__": doc, "__init__": __init__})


MRMInvalidSchemaError = _detailed("MRMInvalidSchemaError", "Schema format is error.",
                                  "The schema is invalid.")
MRMValidateDataError = _detailed("MRMValidateDataError", "Raw data do not match the schema.",
                                 "Rows do not match the schema.")
MRMDefineIndexError = _detailed("MRMDefineIndexError", "Failed to define index field.",
                                "An index field is not a scalar field of the schema.")
MRMDefineBlobError = _detailed("MRMDefineBlobError", "Failed to define blob field.",
                               "A blob field is invalid.")
MRMUnsupportedSchemaError = _detailed("MRMUnsupportedSchemaError", "Schema is not supported.",
                                      "The schema is not supported.")
MRMDefineCategoryError = _detailed("MRMDefineCategoryError", "Failed to define category field.",
                                   "A category field is invalid.")

"""``sporax.mindrecord``: MindSpore's MindRecord files (``mindspore.mindrecord``).

A MindRecord data set is one or more shard files, each a JSON header block and fixed-size
pages of records, with a SQLite index (``<shard>.db``) beside it. sporax reads and writes
MindSpore 2.10's on-disk format byte for byte (see ``header``, ``layout``, ``schema``,
``index``); ``sporax.dataset.MindDataset`` reads these files into a pipeline.
"""
from sporax.mindrecord.converters import Cifar10ToMR, CsvToMR, ImageNetToMR
from sporax.mindrecord.errors import (
    EXCEPTIONS,
    SYS_ID,
    DbConnectionError,
    MindRecordException,
    MRMAddIndexError,
    MRMAddSchemaError,
    MRMBuildSchemaError,
    MRMCloseError,
    MRMCommitError,
    MRMDefineBlobError,
    MRMDefineCategoryError,
    MRMDefineIndexError,
    MRMFetchCandidateFieldsError,
    MRMFetchDataError,
    MRMFinishError,
    MRMGenerateIndexError,
    MRMGetMetaError,
    MRMIndexGeneratorError,
    MRMInitSegmentError,
    MRMInvalidHeaderSizeError,
    MRMInvalidPageSizeError,
    MRMInvalidSchemaError,
    MRMLaunchError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMReadCategoryInfoError,
    MRMSetHeaderError,
    MRMUnsupportedSchemaError,
    MRMValidateDataError,
    MRMWriteDatasetError,
    ParamMissError,
    ParamTypeError,
    ParamValueError,
    PathNotExistsError,
    UnknownError,
)
from sporax.mindrecord.header import DamagedFileError, ShardHeader
from sporax.mindrecord.reader import FileReader
from sporax.mindrecord.writer import FAILED, SUCCESS, FileWriter

__all__ = ["FileWriter", "FileReader", "SUCCESS", "FAILED", "ShardHeader", "DamagedFileError",
           "MindRecordException", "Cifar10ToMR", "ImageNetToMR", "CsvToMR"]

"""``sporax.mindrecord``: MindSpore's MindRecord files (``mindspore.mindrecord``).

Contract: sporax writes the very bytes MindSpore 2.10 writes for the same calls (files and
``.db`` indexes; checked against files recorded from MindSpore) and reads any file MindSpore
writes; a damaged file raises a RuntimeError naming it.

The format, module by module:

* a data set is ``shard_num`` shard files (``name`` or ``name0 .. nameN-1``), each with a
  SQLite index ``<shard>.db`` (``index``: one row per record with the page ids and byte
  ranges of its two parts, plus the index fields);
* a shard is a header block (``header``: 8-byte length + JSON: schema, index fields, page
  table, shard list) and fixed-size pages (``layout``): blob pages hold the records' blob
  parts, raw pages their raw parts, both grouped in row groups as MindSpore cuts them;
* a record's raw part is a MessagePack map of its scalar fields (``msgpack``), its blob part
  its bytes and array fields, integer arrays compressed (``schema``);
* ``writer`` (FileWriter) validates rows and spreads them over shards, ``output`` streams full
  pages to disk, ``reader`` (FileReader) finds records through the index, ``converters``
  turn CIFAR-10, ImageNet folders and CSV into MindRecord.

``sporax.dataset.MindDataset`` reads these files into a pipeline; ``Dataset.save`` writes them.
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
from sporax.mindrecord.encryption import set_dec_mode, set_enc_key, set_enc_mode
from sporax.mindrecord.header import DamagedFileError, ShardHeader
from sporax.mindrecord.image_converters import Cifar100ToMR, MnistToMR
from sporax.mindrecord.paging import MindPage
from sporax.mindrecord.tfrecord_converter import TFRecordToMR
from sporax.mindrecord.reader import FileReader
from sporax.mindrecord.writer import FAILED, SUCCESS, FileWriter

__all__ = ["FileWriter", "FileReader", "SUCCESS", "FAILED", "ShardHeader", "DamagedFileError",
           "MindRecordException", "Cifar10ToMR", "ImageNetToMR", "CsvToMR", "Cifar100ToMR",
           "MnistToMR", "MindPage", "TFRecordToMR", "set_enc_key", "set_enc_mode", "set_dec_mode"]

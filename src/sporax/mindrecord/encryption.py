"""Encrypted MindRecord files: ``set_enc_key``, ``set_enc_mode``, ``set_dec_mode``.

With a key set, ``FileWriter.commit`` encrypts every shard file and its ``.db`` in place, and
the readers (FileReader, MindPage, MindDataset) decrypt each file into a private folder
``.decrypt_mindrecord/`` beside it, removed when the process exits. MindSpore's layout, so
either side reads the other's files:

    [4-byte big-endian length | encrypted 64 MiB chunk] ... | 0 (4 bytes) | 'AES-GCM' | 'ENCRYPT'

and each chunk is the checkpoint block format
``magic | GCM tag | block_len | iv_len | iv | cipher_len | ciphertext`` (uint32 little-endian;
a 16-byte IV of which GCM uses the first 12). A callable mode is the user's own cipher:
``enc_mode(source_handle, size, target_handle, key)`` writes the encrypted bytes (the trailer
then says 'UDF'), and ``dec_mode`` of the same form reads them back.
"""
import atexit
import os
import shutil
import stat
import struct
import threading
import uuid

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

_state = {"key": None, "enc_mode": "AES-GCM", "dec_mode": None}
_END_FLAG = b"ENCRYPT"
_CHUNK = 64 * 1024 * 1024
_GCM_MAGIC = 0x7F3A5ED8
_DECRYPT_FOLDER = ".decrypt_mindrecord"
_decrypted = {}  # (real path, mtime, size) -> decrypted copy
_lock = threading.Lock()


def set_enc_key(enc_key):
    """Set the key that encrypts MindRecord files written from now on and decrypts those read.

    Args:
        enc_key (str): a 16, 24 or 32 character key; None turns encryption off.

    Raises:
        ValueError: if the key is not a str of one of those lengths.

    Examples:
        >>> from sporax.mindrecord import set_enc_key
        >>> set_enc_key("0123456789012345")
        >>> set_enc_key(None)
    """
    if enc_key is None:
        _state["key"] = None
        return
    if not isinstance(enc_key, str):
        raise ValueError("The input enc_key is not str.")
    if len(enc_key) not in (16, 24, 32):
        raise ValueError("The length of input enc_key is not 16, 24, 32.")
    _state["key"] = enc_key


def set_enc_mode(enc_mode="AES-GCM"):
    """Set how MindRecord files are encrypted (used only while a key is set).

    Args:
        enc_mode (Union[str, function], optional): "AES-GCM" (default), or a function
            ``f(source_handle, size, target_handle, key)`` writing the encrypted bytes.

    Raises:
        ValueError: if the mode is neither "AES-GCM" nor callable.

    Examples:
        >>> from sporax.mindrecord import set_enc_mode
        >>> set_enc_mode("AES-GCM")
    """
    if callable(enc_mode):
        _state["enc_mode"] = enc_mode
        return
    if not isinstance(enc_mode, str):
        raise ValueError("The input enc_mode is not str.")
    if enc_mode != "AES-GCM":
        raise ValueError("The input enc_mode is invalid.")
    _state["enc_mode"] = enc_mode


def set_dec_mode(dec_mode="AES-GCM"):
    """Set how MindRecord files are decrypted (default: the encryption mode).

    Args:
        dec_mode (Union[str, function], optional): "AES-GCM" (default), a function
            ``f(source_handle, size, target_handle, key)`` writing the decrypted bytes, or None
            to follow ``set_enc_mode``.

    Raises:
        ValueError: if the mode is neither "AES-GCM", None nor callable.

    Examples:
        >>> from sporax.mindrecord import set_dec_mode
        >>> set_dec_mode("AES-GCM")
    """
    if dec_mode is None or callable(dec_mode):
        _state["dec_mode"] = dec_mode
        return
    if not isinstance(dec_mode, str):
        raise ValueError("The input dec_mode is not str.")
    if dec_mode != "AES-GCM":
        raise ValueError("The input dec_mode is invalid.")
    _state["dec_mode"] = dec_mode


def _dec_mode():
    if _state["dec_mode"] is None:
        if callable(_state["enc_mode"]):
            raise RuntimeError("A customized enc_mode is set but no dec_mode: call "
                               "mindrecord.set_dec_mode(<your decryption function>) to read.")
        return _state["enc_mode"]
    return _state["dec_mode"]


def _mode_tag(mode):
    return b"UDF".ljust(7, b"\0") if callable(mode) else mode.encode()


def _seal(chunk, key):
    iv = os.urandom(16)
    sealed = AESGCM(key).encrypt(iv[:12], chunk, None)
    ciphertext, tag = sealed[:-16], sealed[-16:]
    return (struct.pack("<I", _GCM_MAGIC) + tag + struct.pack("<II", 24 + len(ciphertext), 16)
            + iv + struct.pack("<I", len(ciphertext)) + ciphertext)


def _open_block(block, key, path):
    try:
        magic = struct.unpack_from("<I", block)[0]
        if magic != _GCM_MAGIC:
            raise ValueError("not an AES-GCM block")
        tag = block[4:20]
        _, iv_length = struct.unpack_from("<II", block, 20)
        iv = block[28:28 + iv_length]
        (length,) = struct.unpack_from("<I", block, 28 + iv_length)
        ciphertext = block[32 + iv_length:32 + iv_length + length]
        return AESGCM(key).decrypt(iv[:12], ciphertext + tag, None)
    except Exception:
        raise RuntimeError(f"Failed to decrypt {path}: check that enc_key and enc_mode / "
                           "dec_mode are the ones it was written with.") from None


def encrypt_file(path):
    """Encrypt ``path`` in place with the current key and mode (FileWriter.commit calls it)."""
    key, mode = _state["key"], _state["enc_mode"]
    size = os.path.getsize(path)
    temporary = path + ".encrypt"
    with open(path, "rb") as source, open(temporary, "wb") as target:
        if callable(mode):
            mode(source, size, target, key)
        else:
            while True:
                chunk = source.read(_CHUNK)
                if not chunk:
                    break
                block = _seal(chunk, key.encode())
                target.write(struct.pack(">i", len(block)) + block)
        target.write(struct.pack(">i", 0) + _mode_tag(mode) + _END_FLAG)
    os.chmod(temporary, stat.S_IRUSR | stat.S_IWUSR)
    shutil.move(temporary, path)


def encrypt_written(paths):
    """Encrypt the shard files ``paths`` and their indexes if a key is set."""
    if _state["key"] is None:
        return
    for path in paths:
        encrypt_file(path)
        encrypt_file(path + ".db")


def _is_encrypted(path):
    size = os.path.getsize(path)
    if size < len(_END_FLAG):
        return False
    with open(path, "rb") as handle:
        handle.seek(size - len(_END_FLAG))
        return handle.read() == _END_FLAG


def _decrypt_to(path, target):
    key, mode = _state["key"], _dec_mode()
    size = os.path.getsize(path) - len(_END_FLAG)
    with open(path, "rb") as source:
        source.seek(size - 7)
        stored = source.read(7)
        if stored != _mode_tag(mode):
            raise RuntimeError(f"Failed to decrypt {path}: it was encrypted with "
                               f"{stored.rstrip(bytes(1)).decode(errors='replace')!r}, not with "
                               "the dec_mode set; check set_enc_mode / set_dec_mode.")
        source.seek(0)
        with open(target, "wb") as output:
            if callable(mode):
                mode(source, size, output, key)
                return
            while True:
                header = source.read(4)
                if len(header) != 4:
                    raise RuntimeError(f"Failed to decrypt {path}: the file is truncated.")
                (length,) = struct.unpack(">i", header)
                if length == 0:
                    return
                if length < 0 or source.tell() + length > size:
                    raise RuntimeError(f"Failed to decrypt {path}: invalid encrypted block "
                                       f"length {length} at byte {source.tell() - 4}.")
                output.write(_open_block(source.read(length), key.encode(), path))


def readable(path):
    """The path to read MindRecord file ``path`` (and its ``.db``) from: itself when it is not
    encrypted, else its decrypted copy. Raises when the file and the key setting disagree."""
    encrypted = _is_encrypted(path)
    if _state["key"] is None:
        if encrypted:
            raise RuntimeError(f"The MindRecord file {path} is encrypted. Set its key with "
                               "mindrecord.set_enc_key(...) (and set_enc_mode/set_dec_mode if "
                               "it was not AES-GCM) to read it.")
        return path
    if not encrypted:
        raise RuntimeError(f"The MindRecord file {path} is not encrypted, but an enc_key is "
                           "set; call mindrecord.set_enc_key(None) to read plain files.")
    real = os.path.realpath(path)
    stamp = (real, os.path.getmtime(real), os.path.getsize(real))
    with _lock:
        if stamp in _decrypted and os.path.isfile(_decrypted[stamp]):
            return _decrypted[stamp]
        folder = os.path.join(os.path.dirname(real), _DECRYPT_FOLDER,
                              uuid.uuid5(uuid.NAMESPACE_URL, real).hex)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        target = os.path.join(folder, os.path.basename(real))
        try:
            _decrypt_to(real, target)
            if os.path.isfile(real + ".db"):
                _decrypt_to(real + ".db", target + ".db")
        except BaseException:
            for leftover in (target, target + ".db"):
                if os.path.exists(leftover):
                    os.remove(leftover)
            raise
        _decrypted[stamp] = target
        return target


@atexit.register
def _remove_decrypted():
    for target in list(_decrypted.values()):
        folder = os.path.dirname(target)
        shutil.rmtree(folder, ignore_errors=True)
        parent = os.path.dirname(folder)
        try:
            os.rmdir(parent)  # only when no other set's copies remain
        except OSError:
            pass

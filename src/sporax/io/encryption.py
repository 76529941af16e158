"""MindSpore's block encryption of checkpoints (``formats.md`` A.7), through ``cryptography``.

The plaintext is cut into blocks of at most 64 MiB; each block is
``magic | [GCM tag] | block_len | iv_len | iv | cipher_len | ciphertext`` (uint32 little-endian).
"""
import os
import struct

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

BLOCK_SIZE = 64 * 1024 * 1024
MAGIC = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
MODE_BY_MAGIC = {magic: mode for mode, magic in MAGIC.items()}


def _check(key, mode, what):
    if mode not in MAGIC:
        raise ValueError(f"{what}: mode must be one of {sorted(MAGIC)}, got {mode!r}.")
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"{what}: the key must be bytes, got {type(key).__name__}.")
    sizes = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in sizes:
        raise ValueError(f"{what}: a {mode} key is {' or '.join(map(str, sizes))} bytes long, "
                         f"got {len(key)}.")


def _cbc_cipher(key, mode, iv):
    algorithm = algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)
    return Cipher(algorithm, modes.CBC(iv))


def encrypt(plaintext, key, mode="AES-GCM"):
    """Encrypt checkpoint bytes as MindSpore does."""
    _check(key, mode, "save_checkpoint(enc_key=...)")
    out = bytearray()
    for start in range(0, max(len(plaintext), 1), BLOCK_SIZE):
        block = plaintext[start:start + BLOCK_SIZE]
        iv = os.urandom(16)
        tag = b""
        if mode == "AES-GCM":
            sealed = AESGCM(bytes(key)).encrypt(iv[:12], bytes(block), None)
            ciphertext, tag = sealed[:-16], sealed[-16:]
        else:
            padder = padding.PKCS7(128).padder()
            padded = padder.update(bytes(block)) + padder.finalize()
            encryptor = _cbc_cipher(bytes(key), mode, iv).encryptor()
            ciphertext = encryptor.update(padded) + encryptor.finalize()
        out += struct.pack("<I", MAGIC[mode]) + tag
        out += struct.pack("<II", 4 + 16 + 4 + len(ciphertext), 16)
        out += iv + struct.pack("<I", len(ciphertext)) + ciphertext
    return bytes(out)


def is_encrypted(data):
    return len(data) >= 4 and struct.unpack_from("<I", data)[0] in MODE_BY_MAGIC


def decrypt(data, key, mode, file_name):
    """Decrypt MindSpore block-encrypted bytes; errors name the file and byte offset."""
    _check(key, mode, "load_checkpoint(dec_key=...)")
    out, position = bytearray(), 0
    while position < len(data):
        block_start = position
        try:
            magic = struct.unpack_from("<I", data, position)[0]
            if magic != MAGIC[mode]:
                found = MODE_BY_MAGIC.get(magic)
                hint = f"it was encrypted with {found}" if found else "this is not an encrypted block"
                raise ValueError(f"load_checkpoint: {file_name}: byte {block_start}: expected a "
                                 f"{mode} block, but {hint}; pass dec_mode='{found or mode}'.")
            position += 4
            tag = b""
            if mode == "AES-GCM":
                tag = bytes(data[position:position + 16])
                position += 16
            _, iv_length = struct.unpack_from("<II", data, position)
            position += 8
            iv = bytes(data[position:position + iv_length])
            position += iv_length
            (cipher_length,) = struct.unpack_from("<I", data, position)
            position += 4
            ciphertext = bytes(data[position:position + cipher_length])
            if len(ciphertext) != cipher_length or len(iv) != iv_length:
                raise struct.error("block truncated")
            position += cipher_length
        except struct.error:
            raise ValueError(f"load_checkpoint: {file_name}: the encrypted block at byte "
                             f"{block_start} is truncated.") from None
        try:
            if mode == "AES-GCM":
                out += AESGCM(bytes(key)).decrypt(iv[:12], ciphertext + tag, None)
            else:
                decryptor = _cbc_cipher(bytes(key), mode, iv).decryptor()
                padded = decryptor.update(ciphertext) + decryptor.finalize()
                unpadder = padding.PKCS7(128).unpadder()
                out += unpadder.update(padded) + unpadder.finalize()
        except Exception:
            raise ValueError(f"load_checkpoint: {file_name}: decryption of the block at byte "
                             f"{block_start} failed: wrong dec_key or dec_mode, or the file is "
                             "corrupted.") from None
    return bytes(out)

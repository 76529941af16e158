"""The order MindSpore's C++ token -> id table iterates in, so ``Vocab.vocab()`` lists what MindSpore lists.

MindSpore 2.10 keeps a Vocab in a ``std::unordered_map<std::string, int32_t>`` (GCC's libstdc++) and
``vocab()`` hands out its iteration order, which depends on the keys' hashes, the insertion order and
the bucket-count growth. This module replays that table: libstdc++'s string hash (``_Hash_bytes``,
MurmurHash64A with seed 0xc70f6907), its prime rehash policy (max load factor 1, first table of 13
buckets, growth to the next listed prime at least twice the size) and its singly linked node list
(a new key goes to the front of its bucket, or to the front of the list when its bucket is empty).
"""
import bisect
import math

_MASK = (1 << 64) - 1
_MULTIPLIER = 0xc6a4a7935bd1e995
_SEED = 0xc70f6907
_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)  # libstdc++'s bucket counts below 14
# libstdc++'s __prime_list from 17 on (the search starts at its seventh entry), as far as vocabularies go
_PRIMES = (17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137,
           139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409, 439, 467,
           503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613, 1741,
           1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953,
           6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411, 17749, 19183,
           20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557,
           62233, 67307, 72817, 78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871,
           172933, 187091, 202409, 218971, 236897, 256279, 277261, 299951, 324503, 351061, 379787, 410857,
           444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483, 976369)


def _shift_mix(value):
    return value ^ (value >> 47)


def string_hash(token):
    """``std::hash<std::string>`` of ``token``'s UTF-8 bytes (libstdc++, 64-bit)."""
    data = token.encode("utf-8")
    whole = len(data) & ~7
    hashed = (_SEED ^ (len(data) * _MULTIPLIER)) & _MASK
    for start in range(0, whole, 8):
        word = int.from_bytes(data[start:start + 8], "little")
        hashed = ((hashed ^ (_shift_mix(word * _MULTIPLIER & _MASK) * _MULTIPLIER & _MASK)) * _MULTIPLIER) & _MASK
    if len(data) & 7:
        hashed = ((hashed ^ int.from_bytes(data[whole:], "little")) * _MULTIPLIER) & _MASK
    return _shift_mix(_shift_mix(hashed) * _MULTIPLIER & _MASK)


class _Table:
    """The node list and buckets of a libstdc++ unordered_map with unique string keys."""

    _FRONT = object()  # the list's head sentinel (libstdc++'s _M_before_begin)

    def __init__(self, reserved=0):
        self.buckets, self.next_resize, self.size = 1, 0, 0
        self.head, self.after, self.before, self.codes = None, {}, {}, {}
        if reserved:  # reserve(n): a table of _M_next_bkt(n) buckets before the first insertion
            self.buckets = self._next_buckets(reserved)

    def _next_buckets(self, wanted):
        if wanted < len(_FAST_BUCKETS):
            self.next_resize = _FAST_BUCKETS[wanted]
            return _FAST_BUCKETS[wanted]
        prime = _PRIMES[min(bisect.bisect_left(_PRIMES, wanted), len(_PRIMES) - 1)]
        self.next_resize = prime
        return prime

    def _link_front(self, key, bucket):
        """Put ``key`` first in the list: it becomes the bucket's first node, the old head's bucket now follows it."""
        old_head, self.head = self.head, key
        self.after[key] = old_head
        if old_head is not None:
            self.before[self.codes[old_head] % self.buckets] = key
        self.before[bucket] = self._FRONT

    def _link_in_bucket(self, key, bucket):
        previous = self.before[bucket]
        if previous is self._FRONT:
            self.after[key], self.head = self.head, key
        else:
            self.after[key], self.after[previous] = self.after[previous], key

    def insert(self, key):
        """Add ``key`` (not yet present), growing the table first as libstdc++'s prime policy does."""
        if self.size + 1 > self.next_resize:
            least = max(self.size + 1, 0 if self.next_resize else 11)
            if least >= self.buckets:
                self._rehash(self._next_buckets(max(least + 1, self.buckets * 2)))
            else:
                self.next_resize = math.floor(self.buckets)
        self.codes[key] = string_hash(key)
        bucket = self.codes[key] % self.buckets
        if bucket in self.before:
            self._link_in_bucket(key, bucket)
        else:
            self._link_front(key, bucket)
        self.size += 1

    def _rehash(self, buckets):
        keys = list(self)
        self.buckets, self.head, self.before = buckets, None, {}
        for key in keys:
            bucket = self.codes[key] % buckets
            if bucket in self.before:
                self._link_in_bucket(key, bucket)
            else:
                self._link_front(key, bucket)

    def __iter__(self):
        key = self.head
        while key is not None:
            yield key
            key = self.after[key]


def iteration_order(inserted, reserved=0):
    """The keys ``inserted`` (in that order, distinct) as the C++ table iterates them."""
    table = _Table(reserved)
    for key in inserted:
        table.insert(key)
    return list(table)

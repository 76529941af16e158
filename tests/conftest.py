"""Test-session settings shared by every test folder."""
import os

# sporax caches compiled programs under ~/.cache by default; the test suite must not write
# into the user's home, so it runs without the persistent cache unless one is chosen here.
os.environ.setdefault("SPORAX_COMPILATION_CACHE_DIR", "off")

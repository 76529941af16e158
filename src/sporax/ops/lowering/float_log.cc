// The C library's logf over a float32 array, for the seeded normal draws of sporax.core.seeded_streams.
//
// SporaxFloatLog(values, out, size): out[i] = logf(values[i]).
//
// Why: MindSpore's StandardNormal kernel calls logf once per accepted pair, and glibc's logf is not the exactly
// rounded log (a float64 log rounded to float32 differs in ~0.7% of the draws, NumPy's float32 log in ~20%), so
// the draws are only MindSpore's with the C library's own function; calling it from Python per element took
// 1.1 s per million normals. Built without -ffast-math, so GCC keeps one scalar logf call per element (no
// vector variant from libmvec, whose results differ).
#include <cmath>
#include <cstdint>

extern "C" void SporaxFloatLog(const float* values, float* out, int64_t size) {
  for (int64_t index = 0; index < size; ++index) {
    out[index] = std::log(values[index]);
  }
}

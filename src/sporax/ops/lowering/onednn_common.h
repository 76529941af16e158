// What sporax's oneDNN kernels share (lstm_onednn.cc, conv_onednn.cc: one library, see onednn.py).
#ifndef SPORAX_ONEDNN_COMMON_H_
#define SPORAX_ONEDNN_COMMON_H_

#include <oneapi/dnnl/dnnl.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "xla/ffi/api/ffi.h"

namespace sporax_onednn {

// One kernel call at a time: two calls that XLA ran side by side would each start a team of
// OpenMP threads on the same cores. Held while a call runs, which also guards the scratchpad.
inline std::mutex& CallMutex() {
  // Never destroyed (as the primitive caches): a program may still run while static destructors do at exit.
  static std::mutex& mutex = *new std::mutex;
  return mutex;
}

// Set at process exit (SporaxOnednnStop, from an atexit handler, under CallMutex): from then on a call does
// nothing. JAX dispatches asynchronously, so XLA's threads may still run a program with these kernels while
// the C++ libraries are torn down; a oneDNN call then crashed the process after the script ended.
inline std::atomic<bool>& Stopped() {
  static std::atomic<bool>& stopped = *new std::atomic<bool>(false);
  return stopped;
}

inline void* Aligned(const void* data) {
  auto address = reinterpret_cast<uintptr_t>(data);
  return reinterpret_cast<void*>((address + 63) & ~uintptr_t(63));
}

// The scratchpad of a call (primitives take it from the caller: XLA calls a handler from any of its
// threads, and oneDNN's own scratchpad belongs to the thread that created the primitive). Kept
// between calls: fresh pages on every call cost more than the work. ``slot`` 0 or 1: two primitives that run
// side by side in one call (conv_onednn.cc's backward) each take their own.
// Under CallMutex, as every use of the buffers.
inline std::vector<uint8_t>& ScratchpadBuffer(size_t bytes, int slot) {
  static std::vector<uint8_t>* buffers = new std::vector<uint8_t>[2];  // never destroyed, as CallMutex
  std::vector<uint8_t>& buffer = buffers[slot];
  if (buffer.size() < bytes + 64) buffer.resize(bytes + 64);
  return buffer;
}

inline dnnl::memory Scratchpad(const dnnl::memory::desc& desc, const dnnl::engine& engine, int slot = 0) {
  return dnnl::memory(desc, engine, Aligned(ScratchpadBuffer(desc.get_size(), slot).data()));
}

inline dnnl::memory Wrap(const dnnl::memory::desc& desc, const dnnl::engine& engine, const void* data) {
  return dnnl::memory(desc, engine, const_cast<void*>(data));
}

// ``data`` in layout ``user``, reordered into ``wanted`` where the primitive wants another layout.
inline dnnl::memory Reordered(const dnnl::memory::desc& user, const dnnl::memory::desc& wanted, const void* data,
                              const dnnl::engine& engine, dnnl::stream& stream) {
  dnnl::memory user_memory = Wrap(user, engine, data);
  if (wanted == user) return user_memory;
  dnnl::memory reordered(wanted, engine);
  dnnl::reorder(user_memory, reordered).execute(stream, user_memory, reordered);
  return reordered;
}

inline dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attributes;
  attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attributes;
}

inline xla::ffi::Error Failed(const char* kernel, const dnnl::error& error) {
  return xla::ffi::Error(xla::ffi::ErrorCode::kInternal, std::string(kernel) + ": " + error.what());
}

}  // namespace sporax_onednn

#endif  // SPORAX_ONEDNN_COMMON_H_

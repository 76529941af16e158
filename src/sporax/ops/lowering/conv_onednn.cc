// 2-d convolutions of NHWC data with OIHW weights through oneDNN, as XLA FFI handlers (see conv_onednn.py).
//
// SporaxConvForward(x (N,H,W,C), w (O,C,kh,kw)) -> y (N,Ho,Wo,O)
// SporaxConvBackwardData(dy (N,Ho,Wo,O), w) -> dx (N,H,W,C)
// SporaxConvBackwardWeights(x, dy) -> dw (O,C,kh,kw)
// Attributes: stride_h, stride_w, pad_top, pad_bottom, pad_left, pad_right (int64). One group, no
// dilation. The weights stay OIHW in XLA; each call reorders them to the primitive's blocked layout.
#include <oneapi/dnnl/dnnl.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;
using dnnl::memory;
using Tag = memory::format_tag;

namespace {

using Key = std::array<int64_t, 13>;

struct Conv {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  memory::desc src, dst, weights_user;
  dnnl::convolution_forward::primitive_desc forward_pd;
  dnnl::convolution_backward_data::primitive_desc data_pd;
  dnnl::convolution_backward_weights::primitive_desc weights_pd;
  dnnl::convolution_forward forward;
  dnnl::convolution_backward_data backward_data;
  dnnl::convolution_backward_weights backward_weights;

  explicit Conv(const Key& k) {
    // k: N, C, H, W, O, kh, kw, stride_h, stride_w, pad_top, pad_bottom, pad_left, pad_right
    int64_t ho = (k[2] + k[9] + k[10] - k[5]) / k[7] + 1, wo = (k[3] + k[11] + k[12] - k[6]) / k[8] + 1;
    auto f32 = memory::data_type::f32;
    src = memory::desc({k[0], k[1], k[2], k[3]}, f32, Tag::nhwc);
    dst = memory::desc({k[0], k[4], ho, wo}, f32, Tag::nhwc);
    weights_user = memory::desc({k[4], k[1], k[5], k[6]}, f32, Tag::oihw);
    memory::desc weights_any({k[4], k[1], k[5], k[6]}, f32, Tag::any);
    memory::dims strides = {k[7], k[8]}, low = {k[9], k[11]}, high = {k[10], k[12]};
    // XLA calls a handler from any of its threads, and oneDNN's own scratchpad belongs to the thread
    // that created the primitive: the scratchpad is passed in instead.
    dnnl::primitive_attr attributes;
    attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    auto direct = dnnl::algorithm::convolution_direct;
    forward_pd = dnnl::convolution_forward::primitive_desc(engine, dnnl::prop_kind::forward_training, direct, src,
        weights_any, dst, strides, low, high, attributes);
    data_pd = dnnl::convolution_backward_data::primitive_desc(engine, direct, src, weights_any, dst, strides, low,
        high, forward_pd, attributes);
    weights_pd = dnnl::convolution_backward_weights::primitive_desc(engine, direct, src, weights_any, dst, strides,
        low, high, forward_pd, attributes);
    forward = dnnl::convolution_forward(forward_pd);
    backward_data = dnnl::convolution_backward_data(data_pd);
    backward_weights = dnnl::convolution_backward_weights(weights_pd);
  }
};

// One call at a time: two oneDNN calls that XLA ran side by side would each start a team of
// OpenMP threads on the same cores.
std::mutex call_mutex;

Conv& Primitives(const Key& key) {
  static std::mutex cache_mutex;
  static std::map<Key, std::unique_ptr<Conv>> cache;
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto& entry = cache[key];
  if (!entry) entry = std::make_unique<Conv>(key);
  return *entry;
}

void* Aligned(const void* data) {
  auto address = reinterpret_cast<uintptr_t>(data);
  return reinterpret_cast<void*>((address + 63) & ~uintptr_t(63));
}

// Kept between calls (under call_mutex): fresh pages on every call cost more than the work.
memory Scratchpad(const memory::desc& desc, dnnl::engine& engine) {
  static std::vector<uint8_t> buffer;
  if (buffer.size() < desc.get_size() + 64) buffer.resize(desc.get_size() + 64);
  return memory(desc, engine, Aligned(buffer.data()));
}

memory Wrap(const memory::desc& desc, dnnl::engine& engine, const void* data) {
  return memory(desc, engine, const_cast<void*>(data));
}

// The OIHW weights in the layout ``wanted`` (a copy kept between calls of the same shape would be
// stale: the weights change every step).
memory Weights(Conv& conv, const memory::desc& wanted, const float* data, dnnl::stream& stream) {
  memory user = Wrap(conv.weights_user, conv.engine, data);
  if (wanted == conv.weights_user) return user;
  memory reordered(wanted, conv.engine);
  dnnl::reorder(user, reordered).execute(stream, user, reordered);
  return reordered;
}

ffi::Error Failed(const dnnl::error& error) {
  return ffi::Error(ffi::ErrorCode::kInternal, std::string("oneDNN convolution: ") + error.what());
}

using F32 = ffi::Buffer<ffi::F32>;

Key MakeKey(ffi::Span<const int64_t> x, ffi::Span<const int64_t> w, int64_t sh, int64_t sw, int64_t pt, int64_t pb,
            int64_t pl, int64_t pr) {
  // x is NHWC, w is OIHW
  return Key{x[0], x[3], x[1], x[2], w[0], w[2], w[3], sh, sw, pt, pb, pl, pr};
}

ffi::Error ForwardImpl(F32 x, F32 w, ffi::ResultBuffer<ffi::F32> y, int64_t sh, int64_t sw, int64_t pt, int64_t pb,
                       int64_t pl, int64_t pr) {
  try {
    Conv& conv = Primitives(MakeKey(x.dimensions(), w.dimensions(), sh, sw, pt, pb, pl, pr));
    std::lock_guard<std::mutex> lock(call_mutex);
    dnnl::stream stream(conv.engine);
    memory weights = Weights(conv, conv.forward_pd.weights_desc(), w.typed_data(), stream);
    conv.forward.execute(stream, {{DNNL_ARG_SRC, Wrap(conv.src, conv.engine, x.typed_data())},
        {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, Wrap(conv.dst, conv.engine, y->typed_data())},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.forward_pd.scratchpad_desc(), conv.engine)}});
    stream.wait();
  } catch (const dnnl::error& error) {
    return Failed(error);
  }
  return ffi::Error::Success();
}

ffi::Error BackwardDataImpl(F32 dy, F32 w, ffi::ResultBuffer<ffi::F32> dx, int64_t sh, int64_t sw, int64_t pt,
                            int64_t pb, int64_t pl, int64_t pr) {
  try {
    Conv& conv = Primitives(MakeKey(dx->dimensions(), w.dimensions(), sh, sw, pt, pb, pl, pr));
    std::lock_guard<std::mutex> lock(call_mutex);
    dnnl::stream stream(conv.engine);
    memory weights = Weights(conv, conv.data_pd.weights_desc(), w.typed_data(), stream);
    conv.backward_data.execute(stream, {{DNNL_ARG_DIFF_DST, Wrap(conv.dst, conv.engine, dy.typed_data())},
        {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DIFF_SRC, Wrap(conv.src, conv.engine, dx->typed_data())},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.data_pd.scratchpad_desc(), conv.engine)}});
    stream.wait();
  } catch (const dnnl::error& error) {
    return Failed(error);
  }
  return ffi::Error::Success();
}

ffi::Error BackwardWeightsImpl(F32 x, F32 dy, ffi::ResultBuffer<ffi::F32> dw, int64_t sh, int64_t sw, int64_t pt,
                               int64_t pb, int64_t pl, int64_t pr) {
  try {
    Conv& conv = Primitives(MakeKey(x.dimensions(), dw->dimensions(), sh, sw, pt, pb, pl, pr));
    std::lock_guard<std::mutex> lock(call_mutex);
    dnnl::stream stream(conv.engine);
    memory user = Wrap(conv.weights_user, conv.engine, dw->typed_data());
    bool same = conv.weights_pd.diff_weights_desc() == conv.weights_user;
    memory gradient = same ? user : memory(conv.weights_pd.diff_weights_desc(), conv.engine);
    conv.backward_weights.execute(stream, {{DNNL_ARG_SRC, Wrap(conv.src, conv.engine, x.typed_data())},
        {DNNL_ARG_DIFF_DST, Wrap(conv.dst, conv.engine, dy.typed_data())}, {DNNL_ARG_DIFF_WEIGHTS, gradient},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.weights_pd.scratchpad_desc(), conv.engine)}});
    if (!same) dnnl::reorder(gradient, user).execute(stream, gradient, user);
    stream.wait();
  } catch (const dnnl::error& error) {
    return Failed(error);
  }
  return ffi::Error::Success();
}

}  // namespace

#define SPORAX_CONV_ATTRIBUTES                                                                          \
  .Attr<int64_t>("stride_h").Attr<int64_t>("stride_w").Attr<int64_t>("pad_top").Attr<int64_t>("pad_bottom") \
      .Attr<int64_t>("pad_left").Attr<int64_t>("pad_right")

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxConvForward, ForwardImpl,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Ret<F32>() SPORAX_CONV_ATTRIBUTES);
XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxConvBackwardData, BackwardDataImpl,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Ret<F32>() SPORAX_CONV_ATTRIBUTES);
XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxConvBackwardWeights, BackwardWeightsImpl,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Ret<F32>() SPORAX_CONV_ATTRIBUTES);

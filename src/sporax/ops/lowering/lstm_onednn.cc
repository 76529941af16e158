// The LSTM layer through oneDNN's fused RNN primitive, as two XLA FFI handlers (see lstm_onednn.py).
//
// SporaxLstmForward(x (T,B,I), h0 (B,H), c0 (B,H), w_ih (4H,I), w_hh (4H,H), bias (4H))
//   -> y (T,B,H), h_T, c_T, workspace (bytes: SporaxLstmWorkspaceBytes + 64, for alignment)
// SporaxLstmBackward(the six inputs, y, h_T, c_T, workspace, dy, dh_T, dc_T)
//   -> dx, dh0, dc0, dw_ih, dw_hh, dbias
// Gates in the order input, forget, cell, output (oneDNN's, MindSpore's and PyTorch's); the weights
// stay in the caller's (4H, in) layout ("ldgoi") and are reordered where the primitive wants another.
#include <cstring>
#include <map>
#include <memory>
#include <tuple>

#include "onednn_common.h"

namespace ffi = xla::ffi;
using dnnl::memory;
using Tag = memory::format_tag;
using namespace sporax_onednn;

namespace {

struct Lstm {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  memory::desc src_layer, state, w_layer_user, w_iter_user, bias, dst_layer;
  dnnl::lstm_forward::primitive_desc forward_pd;
  dnnl::lstm_backward::primitive_desc backward_pd;
  dnnl::lstm_forward forward;
  dnnl::lstm_backward backward;

  Lstm(int64_t T, int64_t B, int64_t I, int64_t H) {
    auto md = [](memory::dims dims, Tag tag) { return memory::desc(dims, memory::data_type::f32, tag); };
    src_layer = md({T, B, I}, Tag::tnc);
    state = md({1, 1, B, H}, Tag::ldnc);
    w_layer_user = md({1, 1, I, 4, H}, Tag::ldgoi);
    w_iter_user = md({1, 1, H, 4, H}, Tag::ldgoi);
    auto w_layer_any = md({1, 1, I, 4, H}, Tag::any), w_iter_any = md({1, 1, H, 4, H}, Tag::any);
    bias = md({1, 1, 4, H}, Tag::ldgo);
    dst_layer = md({T, B, H}, Tag::tnc);
    auto direction = dnnl::rnn_direction::unidirectional_left2right;
    auto attributes = UserScratchpad();
    forward_pd = dnnl::lstm_forward::primitive_desc(engine, dnnl::prop_kind::forward_training, direction, src_layer,
        state, state, w_layer_any, w_iter_any, bias, dst_layer, state, state, attributes);
    backward_pd = dnnl::lstm_backward::primitive_desc(engine, dnnl::prop_kind::backward, direction, src_layer,
        state, state, w_layer_any, w_iter_any, bias, dst_layer, state, state, src_layer, state, state,
        w_layer_any, w_iter_any, bias, dst_layer, state, state, forward_pd, attributes);
    forward = dnnl::lstm_forward(forward_pd);
    backward = dnnl::lstm_backward(backward_pd);
  }
};

Lstm& Primitives(int64_t T, int64_t B, int64_t I, int64_t H) {
  // Never destroyed, as conv_onednn.cc's cache: a program may still run at exit.
  using Cache = std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, std::unique_ptr<Lstm>>;
  static std::mutex& cache_mutex = *new std::mutex;
  static Cache& cache = *new Cache;
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto& entry = cache[{T, B, I, H}];
  if (!entry) entry = std::make_unique<Lstm>(T, B, I, H);
  return *entry;
}

using F32 = ffi::Buffer<ffi::F32>;
using Bytes = ffi::Buffer<ffi::U8>;

ffi::Error ForwardImpl(F32 x, F32 h0, F32 c0, F32 w_ih, F32 w_hh, F32 bias, ffi::ResultBuffer<ffi::F32> y,
                       ffi::ResultBuffer<ffi::F32> h_n, ffi::ResultBuffer<ffi::F32> c_n,
                       ffi::ResultBuffer<ffi::U8> workspace) {
  try {
    if (Stopped()) return ffi::Error::Success();
    auto dims = x.dimensions();
    Lstm& lstm = Primitives(dims[0], dims[1], dims[2], h0.dimensions()[1]);
    auto& e = lstm.engine;
    std::lock_guard<std::mutex> lock(CallMutex());
    if (Stopped()) return ffi::Error::Success();
    dnnl::stream stream(e);
    memory w_layer = Reordered(lstm.w_layer_user, lstm.forward_pd.weights_layer_desc(), w_ih.typed_data(), e, stream);
    memory w_iter = Reordered(lstm.w_iter_user, lstm.forward_pd.weights_iter_desc(), w_hh.typed_data(), e, stream);
    lstm.forward.execute(stream, {{DNNL_ARG_SRC_LAYER, Wrap(lstm.src_layer, e, x.typed_data())},
        {DNNL_ARG_SRC_ITER, Wrap(lstm.state, e, h0.typed_data())},
        {DNNL_ARG_SRC_ITER_C, Wrap(lstm.state, e, c0.typed_data())},
        {DNNL_ARG_WEIGHTS_LAYER, w_layer}, {DNNL_ARG_WEIGHTS_ITER, w_iter},
        {DNNL_ARG_BIAS, Wrap(lstm.bias, e, bias.typed_data())},
        {DNNL_ARG_DST_LAYER, Wrap(lstm.dst_layer, e, y->typed_data())},
        {DNNL_ARG_DST_ITER, Wrap(lstm.state, e, h_n->typed_data())},
        {DNNL_ARG_DST_ITER_C, Wrap(lstm.state, e, c_n->typed_data())},
        {DNNL_ARG_WORKSPACE, Wrap(lstm.forward_pd.workspace_desc(), e, Aligned(workspace->typed_data()))},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(lstm.forward_pd.scratchpad_desc(), e)}});
    stream.wait();
  } catch (const dnnl::error& error) {
    return Failed("oneDNN LSTM", error);
  }
  return ffi::Error::Success();
}

ffi::Error BackwardImpl(F32 x, F32 h0, F32 c0, F32 w_ih, F32 w_hh, F32 bias, F32 y, F32 h_n, F32 c_n,
                        Bytes workspace, F32 dy, F32 dh_n, F32 dc_n, ffi::ResultBuffer<ffi::F32> dx,
                        ffi::ResultBuffer<ffi::F32> dh0, ffi::ResultBuffer<ffi::F32> dc0,
                        ffi::ResultBuffer<ffi::F32> dw_ih, ffi::ResultBuffer<ffi::F32> dw_hh,
                        ffi::ResultBuffer<ffi::F32> dbias) {
  try {
    auto dims = x.dimensions();
    int64_t hidden = h0.dimensions()[1];
    Lstm& lstm = Primitives(dims[0], dims[1], dims[2], hidden);
    auto& pd = lstm.backward_pd;
    auto& e = lstm.engine;
    std::lock_guard<std::mutex> lock(CallMutex());
    if (Stopped()) return ffi::Error::Success();
    dnnl::stream stream(e);
    memory w_layer = Reordered(lstm.w_layer_user, pd.weights_layer_desc(), w_ih.typed_data(), e, stream);
    memory w_iter = Reordered(lstm.w_iter_user, pd.weights_iter_desc(), w_hh.typed_data(), e, stream);
    memory dw_layer_user = Wrap(lstm.w_layer_user, e, dw_ih->typed_data());
    memory dw_iter_user = Wrap(lstm.w_iter_user, e, dw_hh->typed_data());
    bool layer_same = pd.diff_weights_layer_desc() == lstm.w_layer_user;
    bool iter_same = pd.diff_weights_iter_desc() == lstm.w_iter_user;
    memory dw_layer = layer_same ? dw_layer_user : memory(pd.diff_weights_layer_desc(), e);
    memory dw_iter = iter_same ? dw_iter_user : memory(pd.diff_weights_iter_desc(), e);
    // The primitive adds into its weight and bias gradients: they start at zero.
    std::memset(dw_layer.get_data_handle(), 0, pd.diff_weights_layer_desc().get_size());
    std::memset(dw_iter.get_data_handle(), 0, pd.diff_weights_iter_desc().get_size());
    std::memset(dbias->typed_data(), 0, 4 * hidden * sizeof(float));
    lstm.backward.execute(stream, {{DNNL_ARG_SRC_LAYER, Wrap(lstm.src_layer, e, x.typed_data())},
        {DNNL_ARG_SRC_ITER, Wrap(lstm.state, e, h0.typed_data())},
        {DNNL_ARG_SRC_ITER_C, Wrap(lstm.state, e, c0.typed_data())},
        {DNNL_ARG_WEIGHTS_LAYER, w_layer}, {DNNL_ARG_WEIGHTS_ITER, w_iter},
        {DNNL_ARG_BIAS, Wrap(lstm.bias, e, bias.typed_data())},
        {DNNL_ARG_DST_LAYER, Wrap(lstm.dst_layer, e, y.typed_data())},
        {DNNL_ARG_DST_ITER, Wrap(lstm.state, e, h_n.typed_data())},
        {DNNL_ARG_DST_ITER_C, Wrap(lstm.state, e, c_n.typed_data())},
        {DNNL_ARG_WORKSPACE, Wrap(lstm.forward_pd.workspace_desc(), e, Aligned(workspace.typed_data()))},
        {DNNL_ARG_DIFF_SRC_LAYER, Wrap(lstm.src_layer, e, dx->typed_data())},
        {DNNL_ARG_DIFF_SRC_ITER, Wrap(lstm.state, e, dh0->typed_data())},
        {DNNL_ARG_DIFF_SRC_ITER_C, Wrap(lstm.state, e, dc0->typed_data())},
        {DNNL_ARG_DIFF_WEIGHTS_LAYER, dw_layer}, {DNNL_ARG_DIFF_WEIGHTS_ITER, dw_iter},
        {DNNL_ARG_DIFF_BIAS, Wrap(lstm.bias, e, dbias->typed_data())},
        {DNNL_ARG_DIFF_DST_LAYER, Wrap(lstm.dst_layer, e, dy.typed_data())},
        {DNNL_ARG_DIFF_DST_ITER, Wrap(lstm.state, e, dh_n.typed_data())},
        {DNNL_ARG_DIFF_DST_ITER_C, Wrap(lstm.state, e, dc_n.typed_data())},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(pd.scratchpad_desc(), e)}});
    if (!layer_same) dnnl::reorder(dw_layer, dw_layer_user).execute(stream, dw_layer, dw_layer_user);
    if (!iter_same) dnnl::reorder(dw_iter, dw_iter_user).execute(stream, dw_iter, dw_iter_user);
    stream.wait();
  } catch (const dnnl::error& error) {
    return Failed("oneDNN LSTM", error);
  }
  return ffi::Error::Success();
}

}  // namespace

// The forward pass's workspace for these sizes, in bytes (the caller adds 64 for alignment).
extern "C" int64_t SporaxLstmWorkspaceBytes(int64_t T, int64_t B, int64_t I, int64_t H) {
  return static_cast<int64_t>(Primitives(T, B, I, H).forward_pd.workspace_desc().get_size());
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxLstmForward, ForwardImpl,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>()
        .Ret<F32>().Ret<F32>().Ret<F32>().Ret<Bytes>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxLstmBackward, BackwardImpl,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>().Arg<F32>()
        .Arg<F32>().Arg<Bytes>().Arg<F32>().Arg<F32>().Arg<F32>()
        .Ret<F32>().Ret<F32>().Ret<F32>().Ret<F32>().Ret<F32>().Ret<F32>());

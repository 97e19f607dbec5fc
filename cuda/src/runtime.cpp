// The CUDA runtime's half of runtime.hpp's table, and the table itself: plain C++ against the
// runtime's headers; the kernels' launchers are kernels.cu's.
#include <cuda_runtime.h>

#include <cstdint>
#include <string_view>

#include "runtime.hpp"

namespace fastblake::cuda::detail {
namespace {

cudaError_t device_name(int device, char name[256]) {
  cudaDeviceProp properties{};
  const cudaError_t e = cudaGetDeviceProperties(&properties, device);
  if (e == cudaSuccess) {
    for (int i = 0; i < 256; ++i) name[i] = properties.name[i];
    name[255] = '\0';
  }
  return e;
}

cudaError_t take_error() { return cudaGetLastError(); }
cudaError_t device_malloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
cudaError_t host_alloc(void** p, std::size_t bytes) {
  return cudaHostAlloc(p, bytes, cudaHostAllocDefault);
}

cudaError_t memory_type(const void* p, cudaMemoryType* type) {
  cudaPointerAttributes attributes{};
  const cudaError_t e = cudaPointerGetAttributes(&attributes, p);
  *type = e == cudaSuccess ? attributes.type : cudaMemoryTypeUnregistered;
  return e;
}

cudaError_t stream_create(cudaStream_t* s) {
  return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}

cudaError_t stream_wait(cudaStream_t waiter, cudaStream_t on) {
  cudaEvent_t event = nullptr;
  cudaError_t e = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (e != cudaSuccess) return e;
  e = cudaEventRecord(event, on);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(waiter, event, 0);
  cudaEventDestroy(event);  // released once the wait is done
  return e;
}

cudaError_t copy(void* to, const void* from, std::size_t bytes, cudaStream_t s) {
  return cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, s);
}

cudaError_t memset_async(void* p, int value, std::size_t bytes, cudaStream_t s) {
  return cudaMemsetAsync(p, value, bytes, s);
}

constexpr runtime the_cuda_runtime{cudaGetDeviceCount,
                                   cudaGetDevice,
                                   cudaSetDevice,
                                   device_name,
                                   take_error,
                                   device_malloc,
                                   cudaFree,
                                   host_alloc,
                                   cudaFreeHost,
                                   memory_type,
                                   stream_create,
                                   cudaStreamDestroy,
                                   cudaStreamSynchronize,
                                   stream_wait,
                                   copy,
                                   memset_async,
                                   launch_reduce,
                                   launch_root_output,
                                   launch_batch};

const runtime* replaced = nullptr;

}  // namespace

std::string_view name_of(resident_variant v) noexcept {
  switch (v) {
    case resident_variant::unrolled:
      return "unrolled";
    case resident_variant::rolled:
      return "rolled";
    case resident_variant::imad:
      return "imad";
    case resident_variant::compact:
      return "compact";
    case resident_variant::pairs:
      return "pairs";
    case resident_variant::one_launch:
      return "one-launch";
    case resident_variant::staged:
      return "staged";
    case resident_variant::rolled_compact:
      return "rolled-compact";
  }
  return "?";
}

std::string_view name_of(batch_variant v) noexcept {
  return v == batch_variant::vector ? "batch-vector" : "batch-bytewise";
}

const runtime& cuda_runtime() noexcept { return the_cuda_runtime; }
const runtime& active_runtime() noexcept { return replaced ? *replaced : the_cuda_runtime; }
void set_runtime_for_testing(const runtime* r) noexcept { replaced = r; }

}  // namespace fastblake::cuda::detail

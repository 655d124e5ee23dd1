// cuda_shim.cpp - a host stand-in for the part of the CUDA runtime that the
// distributed runtime calls (runtime/dist/src), so that runtime_check.cpp
// runs the runtime itself on a machine without a GPU. "Device" memory is
// host memory and every copy is done on the host when it is enqueued, so
// each stream's order, and every order between streams, is kept; streams
// and events are tokens. Interprocess handles are not supported, so the
// cuda-ipc transport refuses itself (the check runs the host transport).
// Only what the runtime uses is here: linking shows what is missing.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime_api.h>

namespace {

/// A distinct token for a stream or an event.
template <class Handle> Handle token() { return reinterpret_cast<Handle>(new char); }
template <class Handle> void dropToken(Handle h) { delete reinterpret_cast<char *>(h); }

} // namespace

extern "C" {

cudaError_t cudaMalloc(void **ptr, size_t bytes) {
  *ptr = std::malloc(bytes ? bytes : 1);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void *ptr) {
  std::free(ptr);
  return cudaSuccess;
}
cudaError_t cudaMallocHost(void **ptr, size_t bytes) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaFreeHost(void *ptr) { return cudaFree(ptr); }

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind,
                            cudaStream_t) {
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

/// Linear memory only (no CUDA arrays): srcPos.x and extent.width in bytes.
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t) {
  if (p->srcArray || p->dstArray) {
    return cudaErrorInvalidValue;
  }
  for (size_t z = 0; z < p->extent.depth; ++z) {
    for (size_t y = 0; y < p->extent.height; ++y) {
      const char *from = static_cast<const char *>(p->srcPtr.ptr) +
                         ((p->srcPos.z + z) * p->srcPtr.ysize + p->srcPos.y + y) * p->srcPtr.pitch +
                         p->srcPos.x;
      char *to = static_cast<char *>(p->dstPtr.ptr) +
                 ((p->dstPos.z + z) * p->dstPtr.ysize + p->dstPos.y + y) * p->dstPtr.pitch +
                 p->dstPos.x;
      std::memmove(to, from, p->extent.width);
    }
  }
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int, int) {
  *stream = token<cudaStream_t>();
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  dropToken(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return cudaSuccess; }
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  *least = 0;
  *greatest = 0;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  *event = token<cudaEvent_t>();
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int) {
  return cudaEventCreate(event);
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  dropToken(event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.0f;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaGetLastError() { return cudaSuccess; }
// Devices: STENCILC_SHIM_DEVICES of them (default 1); the current one is
// only recorded, for stencilc_dist_use_local_device's check.
int shimCurrentDevice = 0;
cudaError_t cudaGetDeviceCount(int *count) {
  const char *devices = std::getenv("STENCILC_SHIM_DEVICES");
  *count = devices ? std::atoi(devices) : 1;
  return *count > 0 ? cudaSuccess : cudaErrorNoDevice;
}
cudaError_t cudaSetDevice(int device) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count) {
    return cudaErrorInvalidDevice;
  }
  shimCurrentDevice = device;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device) {
  *device = shimCurrentDevice;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char *bus, int length, int device) {
  std::snprintf(bus, static_cast<size_t>(length), "shim:%d", device);
  return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error (host stand-in)" : "error (host stand-in)";
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *) { return cudaErrorNotSupported; }
cudaError_t cudaIpcOpenMemHandle(void **, cudaIpcMemHandle_t, unsigned int) {
  return cudaErrorNotSupported;
}
cudaError_t cudaIpcCloseMemHandle(void *) { return cudaErrorNotSupported; }
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *, cudaEvent_t) {
  return cudaErrorNotSupported;
}
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *, cudaIpcEventHandle_t) {
  return cudaErrorNotSupported;
}

} // extern "C"

// element_test.cu - stencilc/device/element.cuh on the GPU, for arrays of
// 1, 3, 17 and 1000 elements: toCompute widens every element exactly (and
// all 65536 fp16 and bf16 patterns), toElement rounds to nearest even as the
// CUDA host conversions do, madd is one rounding (std::fma), and readPair
// reads each bf16 of an array as toCompute does.
#include <cmath>
#include <cstdint>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_test.h"
#include "stencilc/device/element.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace stencilc;
using device_test::Tally;

template <class Element, class Compute>
__global__ void roundTrip(const Element *in, const Compute *values, Compute *widened,
                          Element *rounded, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    widened[i] = device::toCompute(in[i]);
    rounded[i] = device::toElement<Element>(values[i]);
  }
}

template <class Compute>
__global__ void fusedMultiplyAdd(const Compute *c, const Compute *v, Compute *acc, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    acc[i] = device::madd(c[i], v[i], acc[i]);
  }
}

__global__ void pairs(const __nv_bfloat16 *in, float *out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    out[i] = device::readPair(in, i);
  }
}

/// Reproducible arbitrary numbers of every magnitude, with both signs.
template <class Compute> std::vector<Compute> numbers(std::size_t count, unsigned seed) {
  std::vector<Compute> values(count);
  unsigned state = seed;
  for (Compute &v : values) {
    state = state * 1664525u + 1013904223u;
    const double mantissa = (state >> 8) / double(1u << 24) * 2.0 - 1.0;
    state = state * 1664525u + 1013904223u;
    v = static_cast<Compute>(std::ldexp(mantissa, static_cast<int>(state >> 27) - 16));
  }
  return values;
}

/// Elements of the bit patterns 0, stride, 2 * stride, ...
template <class Element> std::vector<Element> spread(std::size_t count, unsigned stride) {
  std::vector<Element> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = device_test::fromBits<Element>(i * stride);
  }
  return values;
}

float hostWiden(__half v) { return __half2float(v); }
float hostWiden(__nv_bfloat16 v) { return __bfloat162float(v); }
float hostWiden(float v) { return v; }
double hostWiden(double v) { return v; }
__half hostRound(float v, __half) { return __float2half_rn(v); }
__nv_bfloat16 hostRound(float v, __nv_bfloat16) { return __float2bfloat16_rn(v); }
float hostRound(float v, float) { return v; }
double hostRound(double v, double) { return v; }

template <class Element, class Compute>
void checkConversions(Tally &tally, std::size_t count, unsigned stride, const char *what) {
  const std::vector<Element> elements = spread<Element>(count, stride);
  const std::vector<Compute> values = numbers<Compute>(count, 7u + count);
  DeviceBuffer<Element> in(count), rounded(count);
  DeviceBuffer<Compute> from(count), widened(count);
  in.upload(elements);
  from.upload(values);
  roundTrip<<<64, 128>>>(in.data(), from.data(), widened.data(), rounded.data(),
                         static_cast<int>(count));
  STENCILC_CHECK_LAUNCH();
  const std::vector<Compute> gotWide = widened.download();
  const std::vector<Element> gotRounded = rounded.download();
  long long wrong = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Compute wide = hostWiden(elements[i]);
    // NaNs widen to some NaN; every other value exactly.
    const bool wideOk =
        std::isnan(wide) ? std::isnan(gotWide[i]) : Tally::sameBits(gotWide[i], wide);
    wrong += wideOk && Tally::sameBits(gotRounded[i], hostRound(values[i], Element())) ? 0 : 1;
  }
  tally.check(wrong == 0, what, static_cast<long long>(count));
}

template <class Compute> void checkMadd(Tally &tally, int count, const char *what) {
  const std::vector<Compute> c = numbers<Compute>(count, 1u), v = numbers<Compute>(count, 2u),
                             acc = numbers<Compute>(count, 3u);
  DeviceBuffer<Compute> dc(count), dv(count), dacc(count);
  dc.upload(c);
  dv.upload(v);
  dacc.upload(acc);
  fusedMultiplyAdd<<<64, 128>>>(dc.data(), dv.data(), dacc.data(), count);
  STENCILC_CHECK_LAUNCH();
  const std::vector<Compute> got = dacc.download();
  long long wrong = 0;
  for (int i = 0; i < count; ++i) {
    wrong += Tally::sameBits(got[i], static_cast<Compute>(std::fma(c[i], v[i], acc[i]))) ? 0 : 1;
  }
  tally.check(wrong == 0, what, count);
}

void checkReadPair(Tally &tally, int count) {
  // An even length: readPair of the last odd element reads its whole word.
  const int length = count + count % 2;
  const std::vector<__nv_bfloat16> elements = spread<__nv_bfloat16>(length, 40503u);
  DeviceBuffer<__nv_bfloat16> in(length);
  DeviceBuffer<float> out(count);
  in.upload(elements);
  pairs<<<64, 128>>>(in.data(), out.data(), count);
  STENCILC_CHECK_LAUNCH();
  const std::vector<float> got = out.download();
  long long wrong = 0;
  for (int i = 0; i < count; ++i) {
    const float want = __bfloat162float(elements[i]);
    wrong += std::isnan(want) ? !std::isnan(got[i]) : !Tally::sameBits(got[i], want);
  }
  tally.check(wrong == 0, "readPair", count);
}

} // namespace

int main() {
  device_test::skipWithoutDevice();
  Tally tally;
  for (int n : device_test::kSizes) {
    checkConversions<__half, float>(tally, n, 40503u, "fp16 conversions");
    checkConversions<__nv_bfloat16, float>(tally, n, 40503u, "bf16 conversions");
    checkConversions<float, float>(tally, n, 2654435761u, "fp32 conversions");
    checkConversions<double, double>(tally, n, 2654435761u, "fp64 conversions");
    checkMadd<float>(tally, n, "madd float");
    checkMadd<double>(tally, n, "madd double");
    checkReadPair(tally, n);
  }
  checkConversions<__half, float>(tally, 65536, 1u, "every fp16");
  checkConversions<__nv_bfloat16, float>(tally, 65536, 1u, "every bf16");
  return tally.finish("element");
}

// stencil_test_main.cu - the GPU conformance test of generated stencils.
//
// Build it with a generated .cu, in a translation unit that first includes
// a list header (written by stencil_list.py), which includes the generated
// header and defines STENCILC_FOR_EACH_STENCIL(X) as X(name) for each
// stencil in it (`stencil_list.py --main` writes such a unit). For every
// stencil it checks the argument validation, then runs the conformance suite
// (runtime/include/stencilc/testing/harness.h) and prints one line per case.
// Exit status 0 when every case passes, 1 otherwise, 77 when there is no GPU.
//
//   stencil_test [--max-points N] [--steps N,N,...] [--naive] [--tolerance T]
//     --max-points N  skip grids of more than N points (e.g. under compute-sanitizer)
//     --steps N,...   NAME_run's step counts at every size, instead of the
//                     harness's (which run 100 steps only where T > 1)
//     --tolerance T   a step's relative L2 error bound for every stencil (a form that
//                     rounds more than its precision's: packed 16-bit arithmetic)
//     --naive         also run the suite on the runtime's naive kernel of each stencil
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "stencilc/runtime/check.h"
#include "stencilc/testing/harness.h"

#ifndef STENCILC_FOR_EACH_STENCIL
#error                                                                                             \
    "include a list header (stencil_list.py) before this file: it defines STENCILC_FOR_EACH_STENCIL"
#endif

int main(int argc, char **argv) {
  stencilc::ConformanceOptions options;
  bool alsoNaive = false;
  double stepTolerance = 0.0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-points") && i + 1 < argc) {
      options.maxPoints = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      for (char *at = argv[++i], *end = nullptr; *at; at = end + (*end == ',')) {
        options.stepCounts.push_back(static_cast<int>(std::strtol(at, &end, 10)));
        if (end == at) {
          std::fprintf(stderr, "%s: --steps takes integers separated by commas\n", argv[0]);
          return 2;
        }
      }
    } else if (!std::strcmp(argv[i], "--naive")) {
      alsoNaive = true;
    } else if (!std::strcmp(argv[i], "--tolerance") && i + 1 < argc) {
      stepTolerance = std::strtod(argv[++i], nullptr);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--max-points N] [--steps N,N,...] [--naive] [--tolerance T]\n",
                   argv[0]);
      return 2;
    }
  }
  // No GPU (CI): report the test skipped (CTest's SKIP_RETURN_CODE), not failed.
  int devices = 0;
  if (cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess || devices == 0) {
    std::printf("SKIP: no usable CUDA device (%s)\n", cudaGetErrorName(status));
    return 77;
  }
  STENCILC_CHECK(cudaFree(nullptr)); // create the context before anything is checked
  std::printf("device: %s\n", stencilc::deviceDescription().c_str());

  std::vector<stencilc::StencilUnderTest> stencils;
#ifdef STENCILC_LIST_WITHOUT_PASS // hand-written stencils (the stand-ins) without NAME_pass
#define STENCILC_ADD(name)                                                                         \
  stencils.push_back(stencilc::makeStencilUnderTest(name##_info, name##_step, name##_run));
#else
#define STENCILC_ADD(name)                                                                         \
  stencils.push_back(                                                                              \
      stencilc::makeStencilUnderTest(name##_info, name##_step, name##_run, name##_pass));
#endif
  STENCILC_FOR_EACH_STENCIL(STENCILC_ADD)
#undef STENCILC_ADD
#ifdef STENCILC_FOR_EACH_PASS_RANGE // stencil_list.py's lists have it; hand-written ones may not
  // NAME_pass_range, where the stencil has it: onto the entry of its NAME_info.
#define STENCILC_ADD_RANGE(name)                                                                   \
  for (stencilc::StencilUnderTest & s : stencils)                                                  \
    if (s.info == &name##_info)                                                                    \
      stencilc::withPassRange(s, name##_pass_range);
  STENCILC_FOR_EACH_PASS_RANGE(STENCILC_ADD_RANGE)
#undef STENCILC_ADD_RANGE
#endif
  for (stencilc::StencilUnderTest &s : stencils)
    s.stepTolerance = stepTolerance;
  if (alsoNaive) {
    const std::size_t generated = stencils.size();
    for (std::size_t i = 0; i < generated; ++i)
      stencils.push_back(stencilc::makeNaiveStencilUnderTest(*stencils[i].info));
  }

  int failures = 0;
  for (const stencilc::StencilUnderTest &s : stencils) {
    failures += stencilc::checkBadArguments(s);
    failures += stencilc::runConformance(s, options);
  }
  if (failures) {
    std::printf("RESULT: FAIL (%d failed cases)\n", failures);
    return 1;
  }
  std::printf("RESULT: PASS (%zu stencils)\n", stencils.size());
  return 0;
}

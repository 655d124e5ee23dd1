// suite.cpp - builds the benchmark suite's stencil infos.
#include "suite.h"

#include <cstdlib>

namespace stencilc::bench {
namespace {

struct Family {
  const char *name;
  int dims;
  int radius;
  stencilc_shape shape;
};

const Family kFamilies[] = {
    {"heat1d", 1, 1, STENCILC_STAR},    {"star1d5p", 1, 2, STENCILC_STAR},
    {"star2d5p", 2, 1, STENCILC_STAR},  {"box2d9p", 2, 1, STENCILC_BOX},
    {"star2d9p", 2, 2, STENCILC_STAR},  {"box2d25p", 2, 2, STENCILC_BOX},
    {"star2d13p", 2, 3, STENCILC_STAR}, {"box2d49p", 2, 3, STENCILC_BOX},
    {"star3d7p", 3, 1, STENCILC_STAR},  {"box3d27p", 3, 1, STENCILC_BOX},
    {"star3d13p", 3, 2, STENCILC_STAR}, {"box3d125p", 3, 2, STENCILC_BOX},
};

const stencilc_precision kPrecisions[] = {STENCILC_FP64, STENCILC_FP32, STENCILC_TF32,
                                          STENCILC_FP16, STENCILC_BF16};
const char *const kPrecisionSuffix[] = {"fp64", "fp32", "tf32", "fp16", "bf16"};

std::vector<stencilc_point> familyPoints(const Family &f) {
  std::vector<stencilc_point> points;
  const int r = f.radius;
  const int span[3] = {f.dims >= 3 ? r : 0, f.dims >= 2 ? r : 0, r}; // z, y, x reach
  for (int dz = -span[0]; dz <= span[0]; ++dz)
    for (int dy = -span[1]; dy <= span[1]; ++dy)
      for (int dx = -span[2]; dx <= span[2]; ++dx) {
        const int nonZero = (dz != 0) + (dy != 0) + (dx != 0);
        if (f.shape == STENCILC_STAR && nonZero > 1)
          continue;
        // Index order, outermost first, trailing components zero.
        const int d3[3] = {dz, dy, dx};
        stencilc_point p{{0, 0, 0}, 0.0};
        for (int a = 0; a < f.dims; ++a)
          p.offset[a] = d3[3 - f.dims + a];
        points.push_back(p);
      }
  const double share = 0.5 / static_cast<double>(points.size() - 1);
  for (stencilc_point &p : points)
    p.coefficient = (p.offset[0] == 0 && p.offset[1] == 0 && p.offset[2] == 0) ? 0.5 : share;
  return points;
}

} // namespace

std::vector<std::unique_ptr<SuiteStencil>> suiteStencils() {
  std::vector<std::unique_ptr<SuiteStencil>> suite;
  for (const Family &f : kFamilies)
    for (int p = 0; p < 5; ++p) {
      auto s = std::make_unique<SuiteStencil>();
      s->name = std::string(f.name) + "_" + kPrecisionSuffix[p];
      s->points = familyPoints(f);
      stencilc_stencil_info &info = s->info;
      info.name = s->name.c_str();
      info.dims = f.dims;
      info.radius = f.radius;
      info.shape = f.shape;
      info.precision = kPrecisions[p];
      info.boundary = STENCILC_BOUNDARY_FIXED;
      info.boundary_value = 0.0;
      info.num_points = static_cast<int>(s->points.size());
      info.points = s->points.data();
      info.backend = STENCILC_BACKEND_SIMT;
      suite.push_back(std::move(s));
    }
  return suite;
}

} // namespace stencilc::bench

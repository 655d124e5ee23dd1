// check_stencils.h - what the CPU checks of the distributed runtime share
// (cpu_check.cpp, runtime_check.cpp): the stars and boxes they run, the
// sizes as the float64 reference takes them, their random grids and the
// bitwise comparison (names for messages: stencilc/runtime/element.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include "stencilc/runtime/element.h"
#include "stencilc/runtime/stencil_info.h"
#include "stencilc/testing/extents.h"
#include "stencilc/testing/reference.h"

namespace stencilc {

/// The points of a star or box of `radius` in `dims` dimensions, with
/// distinct coefficients that sum to one.
inline std::vector<stencilc_point> points(int dims, int radius, stencilc_shape shape) {
  std::vector<stencilc_point> pts;
  const int reach[3] = {radius, dims > 1 ? radius : 0, dims > 2 ? radius : 0};
  for (int a = -reach[0]; a <= reach[0]; ++a)
    for (int b = -reach[1]; b <= reach[1]; ++b)
      for (int c = -reach[2]; c <= reach[2]; ++c) {
        const int nonzero = (a != 0) + (b != 0) + (c != 0);
        if (shape == STENCILC_STAR && nonzero > 1)
          continue;
        pts.push_back({{a, b, c}, 0.0});
      }
  double sum = 0;
  for (std::size_t k = 0; k < pts.size(); ++k) {
    pts[k].coefficient = 1.0 + 0.37 * static_cast<double>(k % 5) + 0.011 * static_cast<double>(k);
    sum += pts[k].coefficient;
  }
  for (stencilc_point &p : pts)
    p.coefficient /= sum;
  return pts;
}

/// Sizes in index order (the first `dims` of `n`) as the reference takes them.
inline Extents extentsOf(int dims, const long long n[3]) {
  const int a = static_cast<int>(n[0]), b = static_cast<int>(n[1]), c = static_cast<int>(n[2]);
  return dims == 1 ? Extents::of1D(a) : dims == 2 ? Extents::of2D(a, b) : Extents::of3D(a, b, c);
}

/// The boundaries every check runs, in stencil_info.h's order.
constexpr stencilc_boundary kEveryBoundary[] = {
    STENCILC_BOUNDARY_FIXED, STENCILC_BOUNDARY_CONSTANT, STENCILC_BOUNDARY_PERIODIC,
    STENCILC_BOUNDARY_CLAMP, STENCILC_BOUNDARY_MIRROR,   STENCILC_BOUNDARY_REFLECT};

/// A star or box of points() as a stencilc_stencil_info in fp64 (the
/// constant boundary's value 0.25), its points held beside it.
struct CheckStencil {
  std::vector<stencilc_point> pts;
  stencilc_stencil_info info = {};

  CheckStencil(const char *name, int dims, int radius, stencilc_shape shape,
               stencilc_boundary boundary, int fused)
      : pts(points(dims, radius, shape)) {
    info.name = name;
    info.dims = dims;
    info.radius = radius;
    info.shape = shape;
    info.precision = STENCILC_FP64;
    info.boundary = boundary;
    info.boundary_value = 0.25;
    info.num_points = static_cast<int>(pts.size());
    info.points = pts.data();
    info.backend = STENCILC_BACKEND_SIMT;
    info.fused_steps = fused;
  }
  CheckStencil(const CheckStencil &) = delete; // info points into pts
  CheckStencil &operator=(const CheckStencil &) = delete;
};

/// `n` values uniform in [0, 1) from `seed`.
inline std::vector<double> randomGrid(std::size_t n, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v)
    x = unit(random);
  return v;
}

/// How many of the values of a and b (as many) differ in their bits.
inline std::size_t bitsDiffer(const std::vector<double> &a, const std::vector<double> &b) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    bad += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
  return bad;
}

/// NAME_pass_range by the float64 reference: `steps` steps of the grid
/// `e` held in `in`, outermost indices [first, first + count) of the
/// result stored into `out` (e's layout), nothing else of it written.
inline void referencePassRange(const stencilc_stencil_info &info, const Extents &e,
                               const double *in, double *out, long long first, long long count,
                               int steps) {
  std::vector<double> v(in, in + e.points());
  referenceRun(info, e, v, steps);
  const long long inner = static_cast<long long>(e.points()) / e.n[0];
  std::copy(v.begin() + first * inner, v.begin() + (first + count) * inner, out + first * inner);
}

/// Calls each(dims, shape, boundary, fused, radius) for every stencil the
/// checks run: 1D to 3D, star and box, every boundary, T = 1 and 2, radius
/// 1 and 2.
template <class Each> void forEveryStencil(Each each) {
  for (int dims : {1, 2, 3})
    for (stencilc_shape shape : {STENCILC_STAR, STENCILC_BOX})
      for (stencilc_boundary b : kEveryBoundary)
        for (int fused : {1, 2})
          for (int radius : {1, 2})
            each(dims, shape, b, fused, radius);
}

/// The main of a check under mpirun: body(rank, ranks, cases, failures)
/// runs the cases, counting them, and returns what the summary adds;
/// rank 0 prints "PASS|FAIL: N cases on R ranks..., F failed". Exit status
/// 1 on any failure.
template <class Body> int runMpiCheck(int argc, char **argv, Body body) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int cases = 0, failures = 0;
  const std::string extra = body(rank, ranks, cases, failures);
  if (rank == 0)
    std::printf("%s: %d cases on %d ranks%s, %d failed\n", failures ? "FAIL" : "PASS", cases, ranks,
                extra.c_str(), failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}

} // namespace stencilc

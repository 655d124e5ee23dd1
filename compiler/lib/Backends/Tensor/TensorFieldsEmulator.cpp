//===- TensorFieldsEmulator.cpp - Stencils of fields on tensor cores, on the CPU ===//
//
// Mirrors the kernel of Tensor/templates/tensor.cu.tpl's kernel_fields_2d
// (kernel_fields_2d_windows where several fields are read at neighbours,
// kernel_fields_3d in 3D) and
// stencilc/device/fields_tensor.cuh: the parameter matrices as the host code
// builds them for the parameters' values, each group's accumulators as the
// MMAs compute them (emulateAccumulators) over the window of the group's
// field, and the epilogue: the groups in
// order, each added or multiplied by its coefficient field with one FMA, then
// the point terms, each coefficient rounded once to the accumulator type
// (times its coefficient field's value, one rounding) and one FMA.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorFields.h"

namespace stencilc {

void emulateTensorFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                             const std::vector<double> &params, GridND &out) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const TensorFieldsPlan &f = *tp.fields;
  const Precision compute = tp.mma.accumulator; // FP32 or FP64: roundToStorage rounds to it
  // A 1D line is one row of nx points; a 3D grid goes plane by plane
  // (emulateAccumulators3D).
  const bool line = spec.dims == 1;
  const int ny = line ? 1 : out.n[0], nx = line ? out.n[0] : out.n[1];
  // Each group's accumulators, its matrices in the plan's gemms, over its
  // field's window, at every point of the grid.
  const std::vector<double> matrices = fieldsParamMatrices(plan, params);
  std::vector<GridND> acc;
  std::size_t next = 0;
  for (std::size_t g = 0; g < f.paramTerms.size(); ++g) {
    Plan group = plan;
    std::vector<SliceGemm> &gemms = std::get<TensorPlan>(group.kernel).gemms;
    for (SliceGemm &gemm : gemms) {
      for (double &v : gemm.param.values) {
        v = matrices[next++];
      }
    }
    // The GEMMs the group skips (all zeros for it) are not run.
    std::vector<SliceGemm> run;
    for (std::size_t i = 0; i < gemms.size(); ++i) {
      if (f.runs(g, i)) {
        run.push_back(gemms[i]);
      }
    }
    gemms = std::move(run);
    GridND &a = acc.emplace_back(out.dims, out.n);
    const GridND &window = fields[std::size_t(f.windowFields[std::size_t(f.groupWindow[g])])];
    if (spec.dims == 3) {
      emulateAccumulators3D(group, window,
                            [&](const std::array<long long, 3> &p, double v) { a.at(p) = v; });
      continue;
    }
    Grid2D in(ny, nx);
    in.values = window.values;
    emulateAccumulators(group, in, [&](long long y, long long x, double v) {
      a.at(line ? std::array<long long, 3>{x, 0, 0} : std::array<long long, 3>{y, x, 0}) = v;
    });
  }
  std::vector<double> k;
  for (int t : f.pointTerms) {
    k.push_back(roundToStorage(spec.fieldTerms[std::size_t(t)].value(params), compute));
  }
  forEachWrittenPoint(spec, out, [&](const std::array<long long, 3> &p) {
    double value = 0.0;
    for (std::size_t g = 0; g < acc.size(); ++g) {
      const int c = f.groupCoefficientField[g];
      value = c >= 0 ? multiplyAdd(fields[std::size_t(c)].at(p), acc[g].at(p), value, compute)
                     : roundToStorage(value + acc[g].at(p), compute);
    }
    for (std::size_t i = 0; i < f.pointTerms.size(); ++i) {
      const FieldTerm &t = spec.fieldTerms[std::size_t(f.pointTerms[i])];
      double c = k[i];
      if (t.coefficientField >= 0) {
        c = roundToStorage(c * fields[std::size_t(t.coefficientField)].at(p), compute);
      }
      value = multiplyAdd(c, fields[std::size_t(t.field)].at(p), value, compute);
    }
    out.at(p) = roundToStorage(value, spec.precision);
  });
}

} // namespace stencilc

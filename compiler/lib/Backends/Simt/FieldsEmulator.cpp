//===- FieldsEmulator.cpp - A stencil of fields on the CPU ------------------===//
#include "Backends/Simt/FieldsEmulator.h"

#include <algorithm>
#include <array>
#include <vector>

namespace stencilc {

namespace {

std::array<long long, 3> plus(const std::array<long long, 3> &p, const Offset &o) {
  return {p[0] + o.d[0], p[1] + o.d[1], p[2] + o.d[2]};
}

/// A value rounded to the arithmetic type (float for every precision but fp64).
double toCompute(double value, Precision compute) {
  return compute == Precision::FP64 ? value : static_cast<double>(static_cast<float>(value));
}

} // namespace

void emulateFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                       const std::vector<double> &params, GridND &out) {
  const StencilSpec &spec = plan.spec;
  const Precision compute = plan.simt().compute;
  std::vector<double> k;
  for (const FieldTerm &t : spec.fieldTerms) {
    k.push_back(toCompute(t.value(params), compute));
  }
  // Where every coefficient field is read at the output point, the terms
  // of each are summed apart and each sum times the field is added last,
  // in field order (the kernel's sumsByField and sumTerms,
  // stencilc/device/fields.cuh).
  const bool sumsByField =
      std::none_of(spec.fieldTerms.begin(), spec.fieldTerms.end(), [](const FieldTerm &t) {
        return t.coefficientField >= 0 && !t.coefficientOffset.isCentre();
      });
  forEachWrittenPoint(spec, out, [&](const std::array<long long, 3> &p) {
    double acc = 0.0;
    std::vector<double> byField(fields.size(), 0.0);
    std::vector<bool> multiplies(fields.size(), false);
    for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
      const FieldTerm &t = spec.fieldTerms[i];
      const double v = boundaryReadND(spec, fields[t.field], plus(p, t.offset));
      if (sumsByField && t.coefficientField >= 0) {
        byField[t.coefficientField] = multiplyAdd(k[i], v, byField[t.coefficientField], compute);
        multiplies[t.coefficientField] = true;
        continue;
      }
      double c = k[i];
      if (t.coefficientField >= 0) {
        const double weight =
            boundaryReadND(spec, fields[t.coefficientField], plus(p, t.coefficientOffset));
        c = toCompute(c * weight, compute); // exact product of two floats, rounded once
      }
      acc = multiplyAdd(c, v, acc, compute);
    }
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (multiplies[f]) {
        acc = multiplyAdd(boundaryReadND(spec, fields[f], p), byField[f], acc, compute);
      }
    }
    out.at(p) = roundToStorage(acc, spec.precision);
  });
}

void referenceFieldsStepND(const StencilSpec &spec, const std::vector<GridND> &fields,
                           const std::vector<double> &params, GridND &out) {
  forEachWrittenPoint(spec, out, [&](const std::array<long long, 3> &p) {
    double acc = 0.0;
    for (const FieldTerm &t : spec.fieldTerms) {
      double c = t.value(params);
      if (t.coefficientField >= 0) {
        c *= boundaryReadND(spec, fields[t.coefficientField], plus(p, t.coefficientOffset));
      }
      acc += c * boundaryReadND(spec, fields[t.field], plus(p, t.offset));
    }
    out.at(p) = acc;
  });
}

} // namespace stencilc

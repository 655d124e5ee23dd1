//===- FieldsFusionTest.cpp - The schedule of a stencil of fields ----------===//
//
// planFieldsFusion (Simt/FieldsFusion.cpp): which stencils of fields fuse on
// CUDA cores, with which T and strip, and why the others keep one launch a
// step; and the bytes a point and step the plan reports.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "Backends/Simt/SimtPlanner.h"
#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileFilled;

namespace {

const char *const Wave =
    R"(stencil wave { precision PRECISION; boundary BOUNDARY; field u, u_prev, src;
       coefficient c2; param dt; param amp per step; time u_prev, u; record u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + amp * src[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]); })";

const char *const Wide =
    R"(stencil wide { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       out[i, j] = u[i, j] + k[i, j] * (u[i-2, j] + u[i+2, j] + u[i, j-2] + u[i, j+2]); })";

const char *const Wave3D =
    R"(stencil wave3 { precision PRECISION; boundary BOUNDARY; field u, u_prev; coefficient c2;
       time u_prev, u;
       out[i, j, l] = 2 * u[i, j, l] - u_prev[i, j, l] + c2[i, j, l] * (u[i-1, j, l] + u[i+1, j, l]
                      - 2 * u[i, j, l]); })";

const char *const PreviousOffPoint =
    R"(stencil odd { precision PRECISION; boundary BOUNDARY; field u, u_prev; time u_prev, u;
       out[i, j] = u[i-1, j] + u[i+1, j] - u_prev[i, j+1]; })";

Schedule scheduleOf(const char *text, const char *precision, const char *boundary, int fuse = 0) {
  PlanOptions options;
  options.fusedSteps = fuse;
  const PlanOrRefusal planned = planFields(compileFilled(text, precision, boundary), options);
  EXPECT_TRUE(planned);
  return planned ? planned->schedule : Schedule{};
}

TEST(FieldsFusion, TwoDimensionalStencilsFuseAsMeasured) {
  const Schedule fp32 = scheduleOf(Wave, "fp32", "fixed");
  EXPECT_EQ(fp32.fusedSteps, 6);
  EXPECT_EQ(fp32.fused.width, 64);
  EXPECT_EQ(fp32.fused.batch, 1);
  EXPECT_EQ(fp32.fused.minBlocks, 4);
  EXPECT_EQ(fp32.fused.halo, 6);
  EXPECT_EQ(fp32.fused.minGridPoints, 0);
  const Schedule fp64 = scheduleOf(Wave, "fp64", "periodic");
  EXPECT_EQ(fp64.fusedSteps, 4);
  EXPECT_EQ(fp64.fused.batch, 2);
  // fp64 fuses from 8192^2 points: below, one step a launch measured faster.
  EXPECT_EQ(fp64.fused.minGridPoints, 8192LL * 8192);
  EXPECT_EQ(scheduleOf(Wave, "fp64", "periodic", 4).fused.minGridPoints, 0);
  EXPECT_EQ(scheduleOf(Wave, "fp16", "constant 0.5").fusedSteps, 6);
}

TEST(FieldsFusion, ALargerReachDividesTAndWidensTheStrip) {
  const Schedule s = scheduleOf(Wide, "fp32", "fixed");
  EXPECT_EQ(s.fusedSteps, 3);
  EXPECT_EQ(s.fused.halo, 6);
  EXPECT_GE(s.fused.columnsPerThread(), 2);
}

TEST(FieldsFusion, FuseOptionSetsTAndFuseOneLaunchesAStep) {
  EXPECT_EQ(scheduleOf(Wave, "fp32", "fixed", 3).fusedSteps, 3);
  const Schedule one = scheduleOf(Wave, "fp32", "fixed", 1);
  EXPECT_EQ(one.fusedSteps, 1);
  EXPECT_FALSE(one.lowered);
}

TEST(FieldsFusion, WhatTheKernelCannotTakeKeepsOneLaunchAStepAndSaysWhy) {
  const Schedule clamp = scheduleOf(Wave, "fp32", "clamp", 4);
  EXPECT_EQ(clamp.fusedSteps, 1);
  EXPECT_TRUE(clamp.lowered);
  EXPECT_NE(clamp.why.find("boundary clamp"), std::string::npos) << clamp.why;
  const Schedule threeD = scheduleOf(Wave3D, "fp32", "fixed");
  EXPECT_EQ(threeD.fusedSteps, 1);
  EXPECT_NE(threeD.why.find("2D only"), std::string::npos) << threeD.why;
  const Schedule odd = scheduleOf(PreviousOffPoint, "fp32", "fixed");
  EXPECT_EQ(odd.fusedSteps, 1);
  EXPECT_NE(odd.why.find("at the point only"), std::string::npos) << odd.why;
}

TEST(FieldsFusion, TheReceiversConeLowersTWhereItPassesSharedMemory) {
  // fp64, reach 4, 8 steps: squares of side 65, 4 warps x 3 of them = 405,600
  // bytes; sm_86 lets a block take 101,376, which 3 steps fit (side 25).
  const char *const Far =
      R"(stencil far { precision PRECISION; boundary BOUNDARY; field u; record u;
         out[i, j] = u[i, j] + 0.1 * (u[i-4, j] + u[i+4, j] + u[i, j-4] + u[i, j+4]); })";
  PlanOptions options;
  options.fusedSteps = 8;
  options.target = Arch::Sm86;
  const PlanOrRefusal planned = planFields(compileFilled(Far, "fp64", "fixed"), options);
  ASSERT_TRUE(planned);
  EXPECT_EQ(planned->schedule.fusedSteps, 3);
  EXPECT_TRUE(planned->schedule.lowered);
  EXPECT_NE(planned->schedule.why.find("receivers' kernel of 8 fused steps"), std::string::npos)
      << planned->schedule.why;
}

TEST(FieldsFusion, BytesAPointAndStepFusedAndNot) {
  const StencilSpec wave = compileFilled(Wave, "fp32", "fixed");
  // u, u_prev, src, c2 read and the new level written: 5 x 4 bytes a step;
  // fused, u and u_prev read and written and src and c2 read once a pass.
  EXPECT_EQ(unfusedBytes(wave), 20);
  EXPECT_DOUBLE_EQ(fusedBytes(wave, 6), 24.0 / 6);
}

} // namespace

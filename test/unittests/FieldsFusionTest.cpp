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

const char *const Heat1D =
    R"(stencil heat1 { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       out[i] = u[i] + k[i] * (u[i-1] + u[i+1] - 2 * u[i]); })";

const char *const Box3D =
    R"(stencil box3 { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       out[i, j, l] = u[i, j, l] + k[i, j, l] * (u[i-1, j-1, l] + u[i+1, j, l+1]); })";

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
  const Schedule oneD = scheduleOf(Heat1D, "fp32", "fixed", 4);
  EXPECT_EQ(oneD.fusedSteps, 1);
  EXPECT_TRUE(oneD.lowered);
  EXPECT_NE(oneD.why.find("2D and 3D"), std::string::npos) << oneD.why;
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

TEST(FieldsFusion, ThreeDimensionalStencilsRunOneStepALaunchUnlessAsked) {
  // Measured faster one step a launch (the fused levels' register queues
  // spill); fuse=T still fuses.
  const Schedule s = scheduleOf(Wave3D, "fp32", "fixed");
  EXPECT_EQ(s.fusedSteps, 1);
  EXPECT_FALSE(s.lowered);
  EXPECT_NE(s.why.find("measured faster one step a launch"), std::string::npos) << s.why;
  EXPECT_EQ(scheduleOf(Wave3D, "fp64", "periodic", 2).fusedSteps, 2);
}

TEST(FieldsFusion, ThreeDimensionalStencilsFuseInFused3dWindows) {
  // fields_fused3d.cuh: fused3d.cuh's windows for the stepped field's reach,
  // halos of T r rows and (whole accesses of) columns, a row to store.
  const Schedule s = scheduleOf(Wave3D, "fp32", "fixed", 4);
  EXPECT_EQ(s.fusedSteps, 4);
  EXPECT_FALSE(s.lowered);
  EXPECT_EQ(s.fused.haloY, 4);
  EXPECT_GE(s.fused.halo, 4);
  EXPECT_GE(s.fused.rows, 1);
  EXPECT_GE(s.fused.storedRows(), 1);
  EXPECT_GE(s.fused.storedColumns(), 1);
  EXPECT_GT(s.fused.sharedBytes, 0);
  EXPECT_NE(s.fused.source.find("fused3d.cuh"), std::string::npos) << s.fused.source;
}

TEST(FieldsFusion, ThreeDimensionalReadsAcrossPlanesAndRowsRingMorePlanes) {
  // A read off both z and y (a box's corner) lags a level r + 1 planes and
  // reads 2r + 1 planes of edge rows: more shared memory than a star.
  const Schedule star = scheduleOf(Wave3D, "fp32", "fixed", 2);
  const Schedule box = scheduleOf(Box3D, "fp32", "fixed", 2);
  EXPECT_GT(box.fused.sharedBytes, star.fused.sharedBytes);
}

TEST(FieldsFusion, BytesAPointAndStepFusedAndNot) {
  const StencilSpec wave = compileFilled(Wave, "fp32", "fixed");
  // u, u_prev, src, c2 read and the new level written: 5 x 4 bytes a step;
  // fused, u and u_prev read and written and src and c2 read once a pass.
  EXPECT_EQ(unfusedBytes(wave), 20);
  EXPECT_DOUBLE_EQ(fusedBytes(wave, 6), 24.0 / 6);
}

} // namespace

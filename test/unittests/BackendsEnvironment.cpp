//===- BackendsEnvironment.cpp - Every backend registered before the tests ===//
//
// The driver registers the backends of Backends.def before it plans
// (initializeAllBackends); a unit test that reaches a backend through the
// shared code (the emitters, the plan printer, backendFor) needs the same.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "stencilc/Pipeline.h"

namespace {

class BackendsEnvironment : public ::testing::Environment {
public:
  void SetUp() override { stencilc::initializeAllBackends(); }
};

// gtest owns and deletes the environment.
[[maybe_unused]] ::testing::Environment *const Registered =
    ::testing::AddGlobalTestEnvironment(new BackendsEnvironment);

} // namespace

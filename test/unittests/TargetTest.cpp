// Unit tests of the architecture table's two questions: which plan a device
// of a given compute capability runs (the driver's default --arch, and the
// choice a multi-architecture library makes at run time), and what an
// --arch list means.
#include <gtest/gtest.h>

#include "stencilc/Target.h"

using namespace stencilc;

namespace {

TEST(Target, DeviceRunsTheNewestArchitectureNotAboveIt) {
  EXPECT_EQ(newestArchFor(80), Arch::Sm80);
  EXPECT_EQ(newestArchFor(87), Arch::Sm86); // Orin: between sm_86 and sm_89
  EXPECT_EQ(newestArchFor(90), Arch::Sm90); // not sm_90a, nvcc must ask for that
  EXPECT_EQ(newestArchFor(101), Arch::Sm100);
  EXPECT_EQ(newestArchFor(121), Arch::Sm120);
  EXPECT_EQ(newestArchFor(130), Arch::Sm120); // newer than every one: the newest
}

TEST(Target, DeviceOlderThanEveryArchitectureHasNone) {
  EXPECT_EQ(newestArchFor(75), std::nullopt);
  EXPECT_EQ(newestArchFor(0), std::nullopt);
}

std::vector<Arch> archsOf(std::string_view list) {
  auto parsed = parseArchList(list);
  EXPECT_TRUE(std::holds_alternative<std::vector<Arch>>(parsed)) << std::get<std::string>(parsed);
  return std::holds_alternative<std::vector<Arch>>(parsed) ? std::get<std::vector<Arch>>(parsed)
                                                           : std::vector<Arch>{};
}

std::string errorOf(std::string_view list) {
  auto parsed = parseArchList(list);
  EXPECT_TRUE(std::holds_alternative<std::string>(parsed)) << list;
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
}

TEST(Target, ListIsOldestFirstWhateverTheOrder) {
  EXPECT_EQ(archsOf("sm_90"), (std::vector<Arch>{Arch::Sm90}));
  EXPECT_EQ(archsOf("sm_90,sm_80"), (std::vector<Arch>{Arch::Sm80, Arch::Sm90}));
  EXPECT_EQ(archsOf("sm_100,sm_80,sm_90"),
            (std::vector<Arch>{Arch::Sm80, Arch::Sm90, Arch::Sm100}));
}

TEST(Target, ListRefusesUnknownEmptyAndRepeatedEntries) {
  EXPECT_EQ(errorOf("sm_80,sm_75"), "unknown --arch 'sm_75'; expected " + archNames(" or "));
  EXPECT_NE(errorOf("sm_80,").find("has an empty entry"), std::string::npos);
  EXPECT_NE(errorOf("").find("has an empty entry"), std::string::npos);
  EXPECT_NE(errorOf("sm_80,sm_80").find("--arch names sm_80 twice; expected"), std::string::npos);
  EXPECT_NE(errorOf("sm_90,sm_90a").find("both of compute capability 9.0"), std::string::npos);
}

} // namespace

#include <gtest/gtest.h>
#include <parity/analysis/axis.h>

#include <string>

namespace parity::analysis {
namespace {

TEST(Axis, OneTableOfNames) {
  EXPECT_EQ(std::string(names(Axis::kStep).key), "step");
  EXPECT_EQ(std::string(names(Axis::kSamples).menu), "Samples seen");
  EXPECT_EQ(std::string(names(Axis::kEpoch).title), "epoch");
  EXPECT_EQ(std::string(names(Axis::kWallTime).key), "time");
  EXPECT_EQ(std::string(names(Axis::kWallTime).menu), "Wall time");
  EXPECT_EQ(std::string(names(Axis::kWallTime).title), "wall time (s)");
  EXPECT_EQ(to_string(Axis::kSamples), "samples");
}

TEST(Axis, ParseIsToStringsInverse) {
  for (Axis axis : kAxes) {
    const auto parsed = parse_axis(to_string(axis));
    ASSERT_TRUE(parsed.has_value()) << to_string(axis);
    EXPECT_EQ(*parsed, axis);
  }
  EXPECT_FALSE(parse_axis("bananas").has_value());
  EXPECT_FALSE(parse_axis("Samples").has_value());  // keys are exact
  EXPECT_FALSE(parse_axis("").has_value());
}

TEST(Axis, ValuesAreStoredSoTheyNeverChange) {
  // The window keeps the axis in QSettings as this int; kAxes is the menu order.
  EXPECT_EQ(static_cast<int>(Axis::kStep), 0);
  EXPECT_EQ(static_cast<int>(Axis::kSamples), 1);
  EXPECT_EQ(static_cast<int>(Axis::kEpoch), 2);
  EXPECT_EQ(static_cast<int>(Axis::kWallTime), 3);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<int>(kAxes[i]), i);
}

}  // namespace
}  // namespace parity::analysis

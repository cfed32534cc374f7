// SPDX-License-Identifier: MIT
// run.slots: default, range, --set override and the effective YAML.
#include "app/config_test_support.hpp"

namespace tcfft::testing {
namespace {

TEST(RunSlots, DefaultRangeOverrideAndEffectiveYaml) {
  auto const base = app::parse_config(kBaseConfig, "cfg.yaml");
  EXPECT_EQ(base.run.slots, 3);
  auto const five = app::parse_config(kBaseConfig + "run:\n  slots: 5\n", "cfg.yaml");
  EXPECT_EQ(five.run.slots, 5);
  EXPECT_NE(five.effective_yaml.find("slots: 5"), std::string::npos) << five.effective_yaml;
  auto const again = app::parse_config(five.effective_yaml, "effective.yaml");
  EXPECT_EQ(again.run.slots, 5);
  EXPECT_EQ(app::parse_config(kBaseConfig, "cfg.yaml", {"run.slots=1"}).run.slots, 1);
  expect_contains(error_of(kBaseConfig + "run:\n  slots: 0\n"), {"run.slots"});
  expect_contains(error_of(kBaseConfig, {"run.slots=17"}), {"run.slots"});
}

}  // namespace
}  // namespace tcfft::testing

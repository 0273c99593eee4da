#pragma once
// tests/data/lr_schedules.json (scripts/fixtures/lr_schedules.py): the cases and the learning
// rates torch computed for them. Shared by the schedule's tests (config) and the Accelerate
// stepping rule's (train); the including target defines PARITY_TEST_DATA.
#include <parity/config/run_config.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace parity::config::test {

inline nlohmann::json lr_schedule_cases() {
  std::ifstream in(std::string(PARITY_TEST_DATA) + "/lr_schedules.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str()).at("cases");
}

/// The case's schedule fields on a default config.
inline RunConfig lr_schedule_config(const nlohmann::json& c) {
  RunConfig config;
  config.scheduler = parse_scheduler(c.at("scheduler").get<std::string>());
  config.warmup_steps = c.value("warmup", 0);
  config.scheduler_step_size = c.value("step_size", 1000);
  config.scheduler_gamma = c.value("gamma", 0.1);
  config.pct_start = c.value("pct_start", 0.3);
  config.div_factor = c.value("div_factor", 25.0);
  config.final_div_factor = c.value("final_div_factor", 1e4);
  return config;
}

}  // namespace parity::config::test

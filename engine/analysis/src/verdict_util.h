#pragma once
// Helpers shared by the verdict and the diagnosis (internal to parity_analysis). Below both:
// it needs only the config library, never verdict.h.

#include <parity/config/batch_plan.h>
#include <parity/config/run_config.h>
#include <parity/config/valid_config.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace parity::analysis::verdict_detail {

using ordered_json = nlohmann::ordered_json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline std::string num(double v, int digits = 6) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}
inline std::string num(int64_t v) { return std::to_string(v); }
inline std::string processes(int w) {
  return num(int64_t{w}) + (w == 1 ? " process" : " processes");
}
inline std::string precision_name(config::MixedPrecision p) {
  return p == config::MixedPrecision::kNo ? "fp32" : to_string(p);
}
inline bool close(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), 1.0);
}

inline std::string show(const ordered_json& v) {
  if (v.is_null()) return "(unset)";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// Flattens nested objects into "outer.inner" keys, keeping order.
inline void flatten(const ordered_json& j, const std::string& prefix, ordered_json& out) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      flatten(value, prefix + key + ".", out);
    } else {
      out[prefix + key] = value;
    }
  }
}
inline ordered_json flat_json(const config::RunConfig& c) {
  ordered_json out = ordered_json::object();
  flatten(ordered_json::parse(to_json(c, -1)), "", out);
  out.erase("label");
  return out;
}

// A run's training-set size as the diagnosis reads it: nullopt given = the config's dataset says
// (known_train_size); a given size <= 0 = the run's own data, unknown.
inline std::optional<int64_t> train_size_of(const config::RunConfig& c,
                                            std::optional<int64_t> given) {
  if (!given) return config::known_train_size(c);
  if (*given <= 0) return std::nullopt;
  return given;
}

// The plan of a stored run, or nullopt when the size is unknown or the config is refused (for
// any build: a GPU run is planned on a CPU build too; the
// verdict then skips the checks that need it rather than failing).
inline std::optional<config::SetupPlan> plan_or_none(const config::RunConfig& c,
                                                     std::optional<int64_t> n) {
  if (!n || *n <= 0) return std::nullopt;
  const auto valid = config::ValidConfig::try_make(c, config::ForBuild::kAny);
  if (!valid) return std::nullopt;
  return config::plan_setup(*valid, *n);
}

// True when n samples cut into whole micro-batch groups on every rank (no tail to handle).
inline bool whole_steps(const config::RunConfig& c, int64_t n) {
  const int64_t per_step =
      c.split_batches ? c.per_device_batch_size : c.per_device_batch_size * c.num_processes;
  return per_step > 0 && n % per_step == 0;
}

}  // namespace parity::analysis::verdict_detail

#pragma once
// What the diagnosis knows about two setups, worked out once and read by every rule of the cause
// registry (internal to parity_analysis).

#include <parity/analysis/verdict_types.h>
#include <parity/config/batch_plan.h>
#include <parity/config/model_summary.h>

#include <optional>
#include <string>
#include <utility>

#include "verdict_util.h"

namespace parity::analysis::verdict_detail {

// The layers that make a model's arithmetic depend on the per-device batch or the rank's seed:
// from the model as the run built it when recorded, else from the config's built-in options (a
// TorchScript module without a record: unknown, so neither).
struct Layers {
  bool batch_norm = false;
  double dropout = 0;  ///< the rate; > 0 when the model has dropout
};
Layers layers_of(const config::RunConfig& c, const std::optional<config::ModelSummary>& model);

struct Setups {
  Setups(const config::RunConfig& config, const config::RunConfig& reference,
         std::optional<int64_t> train_size, std::optional<int64_t> reference_train_size,
         const std::optional<config::ModelSummary>& model,
         const std::optional<config::ModelSummary>& reference_model);

  const config::RunConfig& config;
  const config::RunConfig& reference;
  Layers layers, layers_ref;
  std::optional<int64_t> n, n_ref;  ///< train sizes (passed, else known_train_size())
  int64_t g, g_ref;                 ///< global batches
  double lr, lr_ref;                ///< effective learning rates
  bool same_batch, same_lr;
  std::optional<config::SetupPlan> plan, plan_ref;  ///< nullopt when the size is unknown or refused
  bool plans;                                       ///< both plans known
  bool scheduled;                                   ///< either side has a schedule or warmup
  bool tails_differ;  ///< the epochs' tails differ (padding or dropped samples)
};

// How one differing config key reads: a cause (it can explain a gap) or information.
struct Reading {
  bool cause;
  std::string text;
};
inline Reading cause(std::string text) { return {true, std::move(text)}; }
inline Reading info(std::string text) { return {false, std::move(text)}; }
inline std::string vs(const ConfigDiff& d) { return d.value + " vs " + d.reference; }

}  // namespace parity::analysis::verdict_detail

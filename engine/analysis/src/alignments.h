#pragma once
// How a counterfactual aligns each cause: the run's config changed to match the reference on that
// cause, every value set through the config's own field table (internal to parity_analysis).

#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <string>

namespace parity::analysis::verdict_detail {

struct Change {
  std::string words;
  std::optional<config::RunConfig> config;
  std::string why_not;
};
inline Change refused(std::string why) { return {"", std::nullopt, std::move(why)}; }

struct AlignInput {
  const config::RunConfig& run;
  const config::RunConfig& reference;
  std::optional<int64_t> n, n_ref;  ///< train sizes
};
using Align = Change (*)(const AlignInput&, const std::string& key);

Change align_global_batch(const AlignInput& in, const std::string& key);
Change align_lr(const AlignInput& in, const std::string& key);
Change align_schedule(const AlignInput& in, const std::string& key);
Change align_seed(const AlignInput& in, const std::string& key);
Change align_padding(const AlignInput& in, const std::string& key);
Change align_normalization(const AlignInput& in, const std::string& key);
Change align_dropped(const AlignInput& in, const std::string& key);
Change align_data_order(const AlignInput& in, const std::string& key);
Change align_batch_norm(const AlignInput& in, const std::string& key);
Change align_summation_order(const AlignInput& in, const std::string& key);
/// The reference's value of the config key `key`, read with field_text() and set with
/// set_field_from_text(), the parser the command line uses.
Change align_key(const AlignInput& in, const std::string& key);

}  // namespace parity::analysis::verdict_detail

#pragma once
// The diagnosis's rules, one per cause the registry lists (internal to parity_analysis): derived
// causes read both setups and push their reasons; config keys read one differing key.

#include <parity/analysis/verdict_types.h>

#include <string_view>

#include "setups.h"

namespace parity::analysis::verdict_detail {

/// A derived cause's rule: pushes its reasons under `cause`, the key its registry entry gives it.
using Diagnose = void (*)(std::string_view cause, const Setups&, Diagnosis&);
using ReadKey = Reading (*)(const ConfigDiff&, const Setups&);

void global_batch_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void lr_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void schedule_reason(std::string_view cause, const Setups& s,
                     Diagnosis& d);  // lr_schedule or scheduler_pace
void batch_norm_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void dropout_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void token_normalization_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void padding_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void dropped_reason(std::string_view cause, const Setups& s, Diagnosis& d);
void data_order_reason(std::string_view cause, const Setups& s, Diagnosis& d);

bool whole_steps_both(const Setups& s);

Reading read_seed(const ConfigDiff& d, const Setups& s);
Reading read_data_seed(const ConfigDiff& d, const Setups& s);
Reading read_device_specific_seed(const ConfigDiff& d, const Setups& s);
Reading read_mixed_precision(const ConfigDiff& d, const Setups& s);
Reading read_device(const ConfigDiff& d, const Setups& s);
Reading read_accumulation(const ConfigDiff& d, const Setups& s);
Reading read_num_processes(const ConfigDiff& d, const Setups& s);
Reading read_split_batches(const ConfigDiff& d, const Setups& s);
Reading read_tail_flag(const ConfigDiff& d, const Setups& s);
Reading read_schedule_key(const ConfigDiff& d, const Setups& s);
Reading read_loss_normalization(const ConfigDiff& d, const Setups& s);
Reading read_threads(const ConfigDiff& d, const Setups& s);
Reading read_plain_info(const ConfigDiff& d, const Setups& s);
/// Any other key: "the experiment differs".
Reading read_experiment_key(const ConfigDiff& d, const Setups& s);

}  // namespace parity::analysis::verdict_detail

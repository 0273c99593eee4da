#pragma once
/// Hyper-parameters as a log holds them (TensorBoard's hparams plugin, hparams.yml, the Hugging
/// Face Trainer's TrainingArguments JSON, MLflow params), and the run facts read from them.

#include <parity/config/run_facts.h>

#include <map>
#include <optional>
#include <string>

namespace parity::ingest {

struct ParamValue {
  std::string text;              ///< as written (numbers in their shortest form)
  std::optional<double> number;  ///< when the value is a number (or a bool: 1 / 0)
  std::optional<bool> boolean;   ///< when the value is a bool (or "true"/"false" text)
};

/// Keys as written; nested keys joined with '.' ("accelerator_config.use_seedable_sampler").
using ParamMap = std::map<std::string, ParamValue>;

ParamValue param_number(double v);
ParamValue param_text(std::string v);
ParamValue param_bool(bool v);

/// Fills every fact of `facts` that is still unknown from `params`, each marked known with
/// `source` and the key it came from ("hparams.yml: per_device_train_batch_size"). Reads
/// Accelerate's and transformers' spellings: num_processes / world_size,
/// per_device_train_batch_size / per_device_batch_size, gradient_accumulation_steps,
/// learning_rate / lr, seed, mixed_precision (or bf16 / fp16 true), lr_scheduler_type,
/// use_seedable_sampler, train_samples, epochs / num_train_epochs.
void fill_facts(config::RunFacts& facts, const ParamMap& params, const std::string& source);

/// Flattens a JSON object's scalars into `params` (nested objects as "outer.inner"); arrays and
/// nulls are skipped. Throws IngestError when `json_text` is not a JSON object.
void params_from_json(std::string_view json_text, ParamMap& params);
/// The same for a YAML mapping (hparams.yml, MLflow's meta.yaml). Throws IngestError.
void params_from_yaml(std::string_view yaml_text, ParamMap& params);

}  // namespace parity::ingest

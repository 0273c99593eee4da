#pragma once
/// What is known about how a run trained, fact by fact, and where the run came from.
///
/// A run Parity's engine trained has a complete RunConfig, so every fact of it is known. A run
/// imported from a log (TensorBoard, trainer_state.json, MLflow, CSV) or launched as the user's
/// own command says only some of them: each fact is then **known** (read from a file, `source`
/// says which), **derived** (computed from other facts or a documented default, `source` says
/// how) or **unknown**. The verdict names causes only from known and derived facts; an unknown
/// fact that could explain a gap is named with the flag that would settle it.
/// Torch-free, self-contained (std only); JSON in run_facts.cpp.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace parity::config {

struct RunConfig;

enum class Provenance { kKnown, kDerived, kUnknown };
/// "known", "derived", "unknown".
std::string_view to_string(Provenance provenance);

/// One fact: its value when known or derived, and where it came from.
template <class T>
struct Fact {
  std::optional<T> value;  ///< nullopt <=> kUnknown
  Provenance provenance = Provenance::kUnknown;
  std::string source;  ///< known: the file and field; derived: how; unknown: empty

  static Fact known(T v, std::string from) {
    return Fact{std::move(v), Provenance::kKnown, std::move(from)};
  }
  static Fact derived(T v, std::string how) {
    return Fact{std::move(v), Provenance::kDerived, std::move(how)};
  }
  bool has_value() const { return value.has_value(); }
  const T& operator*() const { return *value; }
};

/// The facts the verdict reads. Spellings are Accelerate's where it has one.
struct RunFacts {
  Fact<int64_t> num_processes;
  Fact<int64_t> per_device_batch_size;
  Fact<int64_t> gradient_accumulation_steps;
  Fact<double> learning_rate;         ///< the base lr, before any scaling
  Fact<std::string> lr_scaling;       ///< "none", "linear", "sqrt"
  Fact<std::string> schedule;         ///< "constant", "linear", "cosine", "step", "onecycle"
  Fact<int64_t> seed;                 ///< set_seed's
  Fact<std::string> mixed_precision;  ///< "no", "bf16", "fp16"
  /// Data order: Accelerate's use_seedable_sampler. False (its default) shuffles a run on several
  /// processes with a fresh torch.Generator() that set_seed does not seed.
  Fact<bool> use_seedable_sampler;
  Fact<int64_t> threads_per_rank;  ///< intra-op threads of each rank
  Fact<std::string> model;         ///< model traits in words ("mlp, dropout 0.25, batch norm")
  Fact<int64_t> train_samples;     ///< the training set's size
  Fact<int64_t> epochs;

  /// processes x per-device batch x accumulation, when all three have a value.
  std::optional<int64_t> global_batch() const;
  /// Whether the samples each step trains on are known (the three facts above have values).
  bool setup_known() const { return global_batch().has_value(); }
};

/// Where a run came from.
enum class RunOrigin { kEngine, kCommand, kImported };
/// "engine", "command", "imported".
std::string_view to_string(RunOrigin origin);
/// The inverse of to_string; nullopt for any other text.
std::optional<RunOrigin> parse_run_origin(std::string_view text);

struct RunSource {
  RunOrigin origin = RunOrigin::kEngine;
  std::string path;  ///< the file or folder an imported run was read from; empty for the engine
};

/// The facts of a run the engine trained: every one known, read from its config.
RunFacts facts_of(const RunConfig& config);

/// Writes every fact that has a value into `config` (the fields it names: num_processes,
/// per_device_batch_size, gradient_accumulation_steps, lr, lr_scaling, scheduler, seed,
/// mixed_precision, train_samples, epochs); a spelling the config does not know (a schedule
/// "cosine_with_restarts") leaves its field as it was.
void apply_facts(const RunFacts& facts, RunConfig& config);

/// {"num_processes": {"value": 2, "provenance": "known", "source": "hparams.yml"}, ...};
/// unknown facts are written with a null value.
std::string to_json(const RunFacts& facts);
/// Throws std::invalid_argument naming the fact that is malformed. Absent facts read as unknown.
RunFacts run_facts_from_json(std::string_view text);

}  // namespace parity::config

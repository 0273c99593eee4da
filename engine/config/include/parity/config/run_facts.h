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
#include <vector>

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

/// One fact of RunFacts as the verdict, `set` and the facts dialog read it: its key (the JSON
/// key, `set`'s spelling), what it is in words, the flag that gives it, the RunConfig field its
/// value is written to (through the config's own parser), and, for a fact that changes no
/// arithmetic the verdict compares, why. A new fact is one entry of for_each_fact_field().
struct FactField {
  std::string_view key;
  std::string_view words;         ///< "data order (use_seedable_sampler)"
  std::string_view flag;          ///< "--use-seedable-sampler"
  std::string_view config_field;  ///< empty: no field (the neutral reason says why)
  std::string_view neutral;       ///< empty: a difference reaches the config diff
  /// Unknown on either side, it could explain a gap: the verdict names it with its flag and
  /// never says "possible bug" meanwhile.
  bool named_when_unknown = false;
  /// Its line in `parity-cli show` and in import's listing: "per-device batch".
  std::string_view label;
  /// The flag's other spellings, comma-separated: "--per_device_batch_size,--lr".
  std::string_view aliases;
  /// The flag's help, after the words it takes when it takes a few ("the lr schedule").
  std::string_view help;
  /// Its name in the window's facts dialog ("Per-device batch"), translated there.
  std::string_view title;
  /// A count: `set` and the facts dialog refuse zero and below.
  bool positive = false;
};

// The dialog's names are the window's strings: lupdate reads them here
// (scripts/update-translations.sh); outside Qt the macro is the text. Qt's own definition.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif

/// Calls visit(const FactField&, Fact<T> RunFacts::*) for every fact, in the JSON's order: the
/// one list the facts' JSON, apply_facts(), the verdict's unknowns and the tests walk.
template <class F>
void for_each_fact_field(F&& visit) {
  visit(FactField{"num_processes", "processes", "--num-processes", "num_processes", "", true,
                  "processes", "--num_processes", "processes the run trained on",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Processes"), true},
        &RunFacts::num_processes);
  visit(
      FactField{
          "per_device_batch_size", "per-device batch", "--per-device-batch-size",
          "per_device_batch_size", "", true, "per-device batch",
          "--per_device_batch_size,--per-device-train-batch-size,--per_device_train_batch_size",
          "batch per device (per process)",
          QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Per-device batch"), true},
      &RunFacts::per_device_batch_size);
  visit(FactField{"gradient_accumulation_steps", "gradient accumulation",
                  "--gradient-accumulation-steps", "gradient_accumulation_steps", "", true,
                  "accumulation", "--gradient_accumulation_steps", "gradient accumulation steps",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Accumulation steps"), true},
        &RunFacts::gradient_accumulation_steps);
  visit(FactField{"learning_rate", "learning rate", "--learning-rate", "lr", "", true,
                  "learning rate", "--learning_rate,--lr", "the base learning rate",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Learning rate")},
        &RunFacts::learning_rate);
  visit(FactField{"lr_scaling", "lr scaling", "--lr-scaling", "lr_scaling", "", true, "lr scaling",
                  "--lr_scaling", "", QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "LR scaling")},
        &RunFacts::lr_scaling);
  // The facts an import most often leaves unknown (a log rarely says them): the schedule, the
  // threads, the model.
  visit(FactField{"schedule", "lr schedule", "--scheduler", "scheduler", "", false, "schedule",
                  "--lr-scheduler-type,--lr_scheduler_type", "the lr schedule",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "LR schedule")},
        &RunFacts::schedule);
  visit(FactField{"seed", "seed", "--seed", "seed", "", true, "seed", "", "set_seed's seed",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Seed")},
        &RunFacts::seed);
  visit(FactField{"mixed_precision", "precision", "--mixed-precision", "mixed_precision", "", true,
                  "precision", "--mixed_precision", "",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Mixed precision")},
        &RunFacts::mixed_precision);
  visit(
      FactField{"use_seedable_sampler", "data order (use_seedable_sampler)",
                "--use-seedable-sampler", "use_seedable_sampler", "", true, "use_seedable_sampler",
                "--use_seedable_sampler", "Accelerate's use_seedable_sampler (data order)",
                QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Seedable sampler")},
      &RunFacts::use_seedable_sampler);
  visit(FactField{"threads_per_rank", "threads per rank", "--threads-per-rank", "threads_per_rank",
                  "", false, "threads per rank", "--threads_per_rank",
                  "intra-op threads of each rank",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Threads per rank"), true},
        &RunFacts::threads_per_rank);
  visit(FactField{"model", "model", "--model", "",
                  "words for the reader (\"mlp, dropout 0.25\"); the verdict reads batch norm and "
                  "dropout from the layers each run recorded, and the experiment keys from the "
                  "config",
                  false, "model", "", "the model in words (\"mlp, dropout 0.25\")",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Model")},
        &RunFacts::model);
  visit(FactField{"train_samples", "training-set size", "--train-samples", "train_samples", "",
                  false, "training samples", "--train_samples", "training samples",
                  QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Training samples"), true},
        &RunFacts::train_samples);
  visit(FactField{"epochs", "epochs", "--epochs", "epochs", "", false, "epochs", "",
                  "epochs the run trained", QT_TRANSLATE_NOOP("parity::ui::FactsDialog", "Epochs"),
                  true},
        &RunFacts::epochs);
}

/// Every fact's entry, in for_each_fact_field()'s order.
const std::vector<FactField>& fact_fields();

/// The words a fact takes when it takes one of a few: its config field's spellings
/// (field_spellings(): "none", "linear", "sqrt"; "true", "false"); empty for any value.
std::vector<std::string> fact_choices(const FactField& field);

/// A fact's value as the text the config's parser reads ("2", "0.05", "true", "cosine").
std::string fact_text(const Fact<int64_t>& fact);
std::string fact_text(const Fact<double>& fact);
std::string fact_text(const Fact<bool>& fact);
std::string fact_text(const Fact<std::string>& fact);

/// The facts of a run the engine trained: every one known, read from its config.
RunFacts facts_of(const RunConfig& config);

/// Writes every fact that has a value into its config field (FactField::config_field, through
/// set_field_from_text(), the command line's parser); a per-device batch also clears
/// split_batches. A spelling the config does not know (a schedule "cosine_with_restarts") leaves
/// its field as it was.
void apply_facts(const RunFacts& facts, RunConfig& config);

/// {"num_processes": {"value": 2, "provenance": "known", "source": "hparams.yml"}, ...};
/// unknown facts are written with a null value.
std::string to_json(const RunFacts& facts);
/// Throws std::invalid_argument naming the fact that is malformed. Absent facts read as unknown.
RunFacts run_facts_from_json(std::string_view text);

}  // namespace parity::config

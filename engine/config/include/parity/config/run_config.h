#pragma once
/// RunConfig: one setup of one experiment, everything a run needs to be reproduced.
/// Torch-free: the GUI and the CLI validate and plan with it without linking LibTorch.

#include <parity/config/config_error.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace parity::config {

enum class Device { kCpu, kCuda };
enum class MixedPrecision { kNo, kBf16, kFp16 };
enum class LrScaling { kNone, kLinear, kSqrt };
enum class DatasetKind { kFashionMnist, kIdx, kCsv, kJsonl, kSyntheticRegression };
enum class Task { kRegression, kClassification };
enum class ModelKind { kLinear, kMlp, kCnn, kBigram, kTorchScript };
enum class Init { kDefault, kZeros };
enum class OptimizerKind { kSgd, kAdamW };
enum class SchedulerKind { kConstant, kLinear, kCosine, kStep, kOneCycle };
enum class LossKind { kAuto, kMse, kCrossEntropy };
/// How a step's loss is normalised: each micro-batch's own mean / k (Accelerate's plain loop), or
/// the sum over the step's valid items on every rank / their all-reduced count
/// (num_items_in_batch).
enum class LossNormalization { kPerBatch, kGlobal };

/// One problem found by check(): the field (snake_case, as in JSON) and the full message.
struct ConfigIssue {
  std::string field;
  std::string message;
};

/// Field names follow Hugging Face Accelerate where it has one (num_processes, split_batches, ...).
struct RunConfig {
  std::string label;  ///< free text shown in tables and legends

  // Setup (what differs between the setups of one experiment).
  int64_t seed = 42;
  std::optional<int64_t> data_seed;  ///< seed of the shuffle; defaults to seed
  /// Adds the rank to the model/dropout seed, never to the data order.
  bool device_specific_seed = false;
  Device device = Device::kCpu;
  int num_processes = 1;
  int64_t per_device_batch_size = 64;  ///< with split_batches: the global batch, cut in W slices
  int gradient_accumulation_steps = 1;
  MixedPrecision mixed_precision = MixedPrecision::kNo;
  LrScaling lr_scaling = LrScaling::kNone;
  bool split_batches = false;
  bool even_batches = true;
  bool drop_last = false;
  int epochs = 1;
  int64_t max_steps = 0;  ///< optimizer steps; 0 = run all epochs
  /// Accelerate's use_seedable_sampler: true shuffles with a generator seeded data_seed + epoch
  /// (its SeedableRandomSampler); false is Accelerate's default, whose order depends on the
  /// process count (one process: the global generator's draws; several: an unseeded generator).
  bool use_seedable_sampler = true;
  /// Intra-op threads of each rank: with the ranks in the allreduce, the summation order of every
  /// sum. 0 = cores / local ranks (at least 1); a recorded run stores the count it trained with.
  int threads_per_rank = 0;
  /// Batch norm's statistics over every rank's batch (PyTorch's SyncBatchNorm), not each rank's
  /// own: needs batch_norm (the built-in mlp and cnn) and even_batches.
  bool sync_batch_norm = false;

  // Experiment (shared by the setups).
  DatasetKind dataset = DatasetKind::kFashionMnist;
  std::string data_path;  ///< folder (fashion-mnist, idx) or file (csv, jsonl); empty = default
  /// csv, jsonl: a test file in the same format; empty = no test file (see validation_split).
  std::string test_data;
  /// Holds out the last fraction of the training data for evaluation (0 = none).
  double validation_split = 0;
  int64_t pad_id = 0;  ///< jsonl: the input id that pads a batch to its longest sequence
  std::vector<std::string> features;  ///< csv feature columns; empty = all but the target
  std::string target;                 ///< csv target column
  Task task = Task::kClassification;
  int64_t train_samples = 0;         ///< use only the first N training samples; 0 = all
  int64_t synthetic_samples = 1024;  ///< synthetic-regression: number of samples
  double synthetic_noise = 0.1;      ///< synthetic-regression: stddev of the noise
  ModelKind model = ModelKind::kMlp;
  Init init = Init::kDefault;
  std::vector<int64_t> hidden{256, 128};
  std::string model_file;     ///< torchscript: a torch.jit.script/trace module saved with .save()
  double dropout = 0;         ///< mlp, cnn: dropout probability after each hidden activation
  bool batch_norm = false;    ///< mlp, cnn: batch norm before each hidden activation
  int64_t embedding_dim = 0;  ///< bigram: 0 = logits straight from the embedding table
  OptimizerKind optimizer = OptimizerKind::kSgd;
  double lr = 0.05;  ///< base learning rate, before lr_scaling
  double momentum = 0.0;
  double weight_decay = 0.0;
  SchedulerKind scheduler = SchedulerKind::kConstant;
  int64_t warmup_steps = 0;  ///< in scheduler steps (constant, linear, cosine)
  /// The schedule's length in scheduler steps, as users pass num_training_steps; 0 = Accelerate's
  /// examples' default, (batches of the unsharded loader x epochs) // accumulation.
  int64_t num_training_steps = 0;
  double pct_start = 0.3;         ///< onecycle: fraction of the schedule spent rising
  double div_factor = 25;         ///< onecycle: initial lr = max lr / div_factor
  double final_div_factor = 1e4;  ///< onecycle: min lr = initial lr / final_div_factor
  /// onecycle: momentum (SGD) or beta1 (AdamW) cycled 0.95 -> 0.85 -> 0.95 against the lr, as
  /// OneCycleLR does by default (it overrides the optimizer's own momentum)
  bool cycle_momentum = true;
  int64_t scheduler_step_size = 1000;  ///< step scheduler: decay every N scheduler steps
  double scheduler_gamma = 0.1;        ///< step scheduler: decay factor
  LossKind loss = LossKind::kAuto;     ///< auto: cross-entropy for classification, mse otherwise
  LossNormalization loss_normalization = LossNormalization::kPerBatch;
  bool eval_every_epoch = true;

  // Your command: the setup runs the user's own training command instead of Parity's engine
  // (launch/command_template.h: placeholders such as {per_device_batch_size} take the setup's
  // values); its losses are captured from its PARITY lines. Empty = the engine trains it.
  std::string command;
  std::string workdir;                   ///< where the command runs; empty = the current folder
  std::vector<std::string> command_env;  ///< NAME=VALUE set in the command's environment
  /// Where the command's losses come from: "auto" (its PARITY lines; without them the
  /// trainer_state.json or TensorBoard files it writes under {run_dir}, followed live),
  /// "stdout", "trainer-state" or "tensorboard".
  std::string capture = "auto";

  int64_t effective_data_seed() const { return data_seed.value_or(seed); }
  LossKind effective_loss() const;
  /// Token data (jsonl): inputs are ids, every label position is an item of the loss.
  bool token_data() const;
};

/// Every problem with the config (empty when valid). Used by the UI for inline marks.
std::vector<ConfigIssue> check(const RunConfig& config);
/// Throws ConfigError for the first problem found by check().
void validate(const RunConfig& config);

/// What a field holds: how the command line reads it and what its --help calls it.
enum class FieldKind {
  kInt,      ///< INT
  kNumber,   ///< NUMBER
  kBool,     ///< BOOL: true|false
  kSwitch,   ///< a flag: given bare it means true (--flag=false works too)
  kText,     ///< TEXT
  kPath,     ///< PATH
  kName,     ///< NAME: one of the enum's spellings
  kIntList,  ///< INT,INT
  kColumns,  ///< COL,COL
  kColumn,   ///< COL
};

/// One RunConfig field as JSON, the command line and help know it.
struct ConfigField {
  std::string_view name;   ///< JSON key, snake_case (Accelerate's name where it has one)
  std::string_view help;   ///< one line
  std::string_view group;  ///< "Setup" (what differs between setups) or "Experiment" (shared)
  FieldKind kind;
};

/// Every field of RunConfig, in JSON order: the one list JSON, flags and help are made from.
const std::vector<ConfigField>& config_fields();

/// Sets a field from command-line text, read as the JSON reader reads the same value (lists as
/// "256,128"; booleans true|false|1|0|yes|no|on|off). Throws ConfigError naming the field.
void set_field_from_text(RunConfig& config, const std::string& name, const std::string& text);
/// A field's value as the text set_field_from_text() reads back ("256,128", "true", "0.05"; ""
/// for an unset data_seed). Throws ConfigError for an unknown field.
std::string field_text(const RunConfig& config, const std::string& name);

/// The spellings a NAME field takes, as the command line reads them ("none", "linear", "sqrt");
/// "true", "false" for a BOOL field; empty for any other field or an unknown name.
std::vector<std::string> field_spellings(std::string_view name);

/// JSON (snake_case keys, enum values as their CLI spellings; data_seed null when unset).
/// from_json also accepts kebab-case keys ("per-device-batch-size") and "data" for data_path, as
/// the CLI spells them; missing keys keep their defaults. It rejects unknown keys, wrong JSON types
/// and unknown enum spellings with ConfigError naming the key, but does not range-check: call
/// check() or validate() before starting anything.
std::string to_json(const RunConfig& config, int indent = 2);
RunConfig from_json(const std::string& text);
/// Configs in a set file: either {"setups":[...], "experiment":{...}} or a plain array of configs.
/// Experiment keys apply to every setup unless the setup overrides them. The object form may also
/// carry "name" and "description" (free text); other top-level keys are refused. Errors inside a
/// setup name it: "setups[1].num_processes: ...".
std::vector<RunConfig> configs_from_set_json(const std::string& text);

// Enum spellings, as on the command line ("cpu", "bf16", "linear", "fashion-mnist", ...).
std::string to_string(Device v);
std::string to_string(MixedPrecision v);
std::string to_string(LrScaling v);
std::string to_string(DatasetKind v);
std::string to_string(Task v);
std::string to_string(ModelKind v);
std::string to_string(Init v);
std::string to_string(OptimizerKind v);
std::string to_string(SchedulerKind v);
std::string to_string(LossKind v);
std::string to_string(LossNormalization v);
/// Parse helpers; each throws ConfigError(field, text, allowed) on an unknown spelling.
Device parse_device(const std::string& s);
MixedPrecision parse_mixed_precision(const std::string& s);
LrScaling parse_lr_scaling(const std::string& s);
DatasetKind parse_dataset(const std::string& s);
Task parse_task(const std::string& s);
ModelKind parse_model(const std::string& s);
Init parse_init(const std::string& s);
OptimizerKind parse_optimizer(const std::string& s);
SchedulerKind parse_scheduler(const std::string& s);
LossKind parse_loss(const std::string& s);
LossNormalization parse_loss_normalization(const std::string& s);

/// True when this build of Parity was linked against a LibTorch with CUDA.
bool cuda_build();

}  // namespace parity::config

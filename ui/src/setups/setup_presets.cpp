#include <parity/ui/setups/setup_presets.h>

#include <QObject>
#include <set>

namespace parity::ui {

namespace {

config::RunConfig shape(const char* label, int processes, int64_t batch) {
  config::RunConfig c;
  c.label = label;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  return c;
}

}  // namespace

std::vector<SetupPreset> presets() {
  return {
      {QObject::tr("Single GPU 1x256"),
       QObject::tr("One process, per-device batch 256 (global batch 256)"), shape("1x256", 1, 256)},
      {QObject::tr("Multi-GPU 2x128"),
       QObject::tr("Two processes of 128: the same global batch of 256"), shape("2x128", 2, 128)},
      {QObject::tr("TPU-pod-shaped 8x32 (8 CPU ranks; Parity cannot run XLA)"),
       QObject::tr("The batch shape of an 8-worker TPU pod, run as 8 CPU processes: global "
                   "batch 256. Parity has no XLA backend."),
       shape("8x32 (TPU-pod-shaped)", 8, 32)},
  };
}

config::RunConfig defaultExperiment() {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kFashionMnist;
  c.task = config::Task::kClassification;
  c.model = config::ModelKind::kMlp;
  c.train_samples = 12000;
  c.epochs = 1;
  return c;
}

config::RunConfig demoExperiment() {
  config::RunConfig c = defaultExperiment();
  c.train_samples = 7680;  // whole global batches of 64 and 128: no padding repeats
  c.hidden = {128};
  c.lr = 0.05;
  c.epochs = 1;
  return c;
}

std::vector<config::RunConfig> demoSetups() {
  std::vector<config::RunConfig> setups = {shape("1x64", 1, 64), shape("2x32", 2, 32),
                                           shape("2x64 unscaled", 2, 64),
                                           shape("2x64 linear", 2, 64)};
  setups.back().lr_scaling = config::LrScaling::kLinear;
  const config::RunConfig experiment = demoExperiment();
  for (auto& s : setups) applyExperiment(experiment, s);
  return setups;
}

void applyExperiment(const config::RunConfig& e, config::RunConfig& s) {
  s.epochs = e.epochs;
  s.max_steps = e.max_steps;
  s.dataset = e.dataset;
  s.data_path = e.data_path;
  s.test_data = e.test_data;
  s.validation_split = e.validation_split;
  s.pad_id = e.pad_id;
  s.features = e.features;
  s.target = e.target;
  s.task = e.task;
  s.train_samples = e.train_samples;
  s.synthetic_samples = e.synthetic_samples;
  s.synthetic_noise = e.synthetic_noise;
  s.model = e.model;
  s.init = e.init;
  s.hidden = e.hidden;
  s.model_file = e.model_file;
  s.dropout = e.dropout;
  s.batch_norm = e.batch_norm;
  s.embedding_dim = e.embedding_dim;
  s.optimizer = e.optimizer;
  s.lr = e.lr;
  s.momentum = e.momentum;
  s.weight_decay = e.weight_decay;
  s.scheduler = e.scheduler;
  s.warmup_steps = e.warmup_steps;
  s.num_training_steps = e.num_training_steps;
  s.pct_start = e.pct_start;
  s.div_factor = e.div_factor;
  s.final_div_factor = e.final_div_factor;
  s.cycle_momentum = e.cycle_momentum;
  s.scheduler_step_size = e.scheduler_step_size;
  s.scheduler_gamma = e.scheduler_gamma;
  s.loss = e.loss;
  s.loss_normalization = e.loss_normalization;
  s.eval_every_epoch = e.eval_every_epoch;
  s.command = e.command;
  s.workdir = e.workdir;
  s.command_env = e.command_env;
  s.capture = e.capture;
}

bool isExperimentField(const std::string& field) {
  static const std::set<std::string> kFields = {"command",
                                                "workdir",
                                                "command_env",
                                                "capture",
                                                "epochs",
                                                "max_steps",
                                                "dataset",
                                                "data_path",
                                                "data",
                                                "test_data",
                                                "validation_split",
                                                "pad_id",
                                                "features",
                                                "target",
                                                "task",
                                                "train_samples",
                                                "synthetic_samples",
                                                "synthetic_noise",
                                                "model",
                                                "init",
                                                "hidden",
                                                "model_file",
                                                "dropout",
                                                "batch_norm",
                                                "embedding_dim",
                                                "optimizer",
                                                "lr",
                                                "momentum",
                                                "weight_decay",
                                                "scheduler",
                                                "warmup_steps",
                                                "num_training_steps",
                                                "pct_start",
                                                "div_factor",
                                                "final_div_factor",
                                                "cycle_momentum",
                                                "scheduler_step_size",
                                                "scheduler_gamma",
                                                "loss",
                                                "loss_normalization",
                                                "eval_every_epoch"};
  return kFields.count(field) > 0;
}

}  // namespace parity::ui

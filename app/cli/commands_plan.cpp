// `plan`: the equivalent-batch table, what each configured setup does, and the shard plan
// (which sample indices each rank takes per step), all without training.
#include <parity/config/batch_plan.h>
#include <parity/config/data_sizes.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>
#include <parity/config/setup_text.h>
#include <parity/config/shard_plan.h>
#include <parity/config/valid_config.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "command_runner.h"
#include "commands.h"
#include "config_flags.h"
#include "table.h"

namespace parity::cli {
namespace {

using config::RunConfig;

struct PlanArgs {
  ConfigFlags config;
  std::string set_file;
  std::string reference_batches = "256,128,64,32";
  int64_t train_size = 0;
  bool shards = false;
  int64_t epoch = 0;
  int64_t steps = 2;
  int64_t max_indices = 16;
};

/// The seed's presets, used when no setup is given.
std::vector<RunConfig> preset_setups() {
  std::vector<RunConfig> out;
  for (auto [label, w, b] :
       {std::tuple{"Single GPU 1x256", 1, 256}, std::tuple{"Multi-GPU 2x128", 2, 128},
        std::tuple{"TPU-pod-shaped 8x32", 8, 32}}) {
    RunConfig c;
    c.label = label;
    c.num_processes = w;
    c.per_device_batch_size = b;
    out.push_back(c);
  }
  return out;
}

std::vector<RunConfig> setups_of(const PlanArgs& a) {
  std::vector<RunConfig> configs;
  if (!a.set_file.empty()) {
    configs = config::configs_from_set_json(read_text_file(a.set_file));
    for (auto& c : configs) a.config.apply(c);  // flags given as well apply to every setup
  } else if (a.config.any_flag_given() || a.config.config_file_given()) {
    configs.push_back(a.config.build());
  } else {
    configs = preset_setups();
  }
  for (auto& c : configs) {
    if (c.label.empty()) c.label = config::default_label(c);
    require_valid(c);
    require_command(c);
  }
  return configs;
}

config::DataSizes data_sizes_of(const PlanArgs& a, const RunConfig& c) {
  config::DataSizes sizes;
  try {
    sizes = config::read_data_sizes(c);  // a csv's or jsonl's lines, an IDX header
  } catch (const config::DatasetError& e) {
    if (a.train_size <= 0) throw UsageError(std::string(e.what()) + " (or pass --train-size N)");
    sizes.source = "not read";
  }
  if (a.train_size > 0) sizes.train = a.train_size;
  return sizes;
}

int64_t train_size_of(const PlanArgs& a, const RunConfig& c) { return data_sizes_of(a, c).train; }

// Where the lr schedule ends before training does (Accelerate's examples' default length runs
// short: each epoch's extra synced step), in words; empty when it lasts.
std::string schedule_note(const RunConfig& c, const config::SetupPlan& p, int64_t n) {
  if (c.scheduler == config::SchedulerKind::kConstant) return {};
  const int64_t length = config::schedule_length(c, n);
  const int64_t used = p.total_optimizer_steps * p.scheduler_steps_per_optimizer_step;
  if (length >= used) return {};
  const int64_t last_inside = length / p.scheduler_steps_per_optimizer_step;
  std::string what = c.scheduler == config::SchedulerKind::kOneCycle
                         ? "onecycle stays at its final lr"
                     : c.scheduler == config::SchedulerKind::kCosine ? "cosine rises again"
                     : c.scheduler == config::SchedulerKind::kLinear ? "linear holds lr 0"
                                                                     : "step keeps decaying";
  return "the lr schedule (" + std::to_string(length) + " scheduler steps" +
         (c.num_training_steps > 0 ? "" : ", the default") + ") ends before training (" +
         std::to_string(used) + "): " + what + " after optimizer step " +
         std::to_string(last_inside);
}

void print_equivalent_table(const PlanArgs& a, const std::vector<RunConfig>& configs) {
  std::vector<int64_t> refs;
  for (int64_t id : parse_id_list(a.reference_batches, "--reference-batch")) refs.push_back(id);
  const std::vector<config::EquivalentShape> shapes = config::equivalent_shapes(configs);
  std::vector<std::string> header{"reference batch"};
  for (const auto& s : shapes) header.push_back(s.name);
  Table table(header);
  for (const auto& row : config::equivalent_table(refs, shapes)) {
    std::vector<std::string> cells{std::to_string(row.reference_batch)};
    for (const auto& b : row.per_device)
      cells.push_back(b ? std::to_string(*b) : "does not divide");
    table.add(cells);
  }
  std::cout << "Equivalent batch: the per-device batch that keeps the global batch equal to a "
               "single-device reference batch\n";
  table.print(std::cout);
}

void print_setup_table(const PlanArgs& a, const std::vector<RunConfig>& configs) {
  Table table({"setup", "processes", "per-device batch", "accumulation", "global batch",
               "effective lr", "optimizer steps/epoch", "scheduler steps/optimizer step",
               "total steps", "notes"});
  const int64_t first_global = config::global_batch_size(configs.front());
  bool unequal = false;
  // Your command reads its own data: Parity knows its size only from --train-size.
  const auto data_unknown = [&](const RunConfig& c) {
    return !c.command.empty() && a.train_size <= 0;
  };
  for (const auto& c : configs) {
    const int64_t n = data_unknown(c) ? 0 : train_size_of(a, c);
    const config::SetupPlan p = config::plan_setup(
        config::ValidConfig::make(c, config::ForBuild::kAny), n);  // planned here, run anywhere
    std::string global = std::to_string(p.global_batch);
    if (p.global_batch != first_global) {
      global += " *";
      unequal = true;
    }
    std::string notes;
    // Every planner note is about how the data splits into batches: unknown for your command.
    if (!data_unknown(c))
      for (const auto& note : p.notes) notes += (notes.empty() ? "" : "; ") + note;
    if (const std::string note = data_unknown(c) ? "" : schedule_note(c, p, n); !note.empty()) {
      notes += (notes.empty() ? "" : "; ") + note;
    }
    table.add({c.label, std::to_string(c.num_processes) + (c.split_batches ? " (split)" : ""),
               std::to_string(c.per_device_batch_size),
               std::to_string(c.gradient_accumulation_steps), global, fmt(p.effective_lr),
               data_unknown(c) ? "?" : std::to_string(p.optimizer_steps_per_epoch),
               std::to_string(p.scheduler_steps_per_optimizer_step),
               data_unknown(c) ? "?" : std::to_string(p.total_optimizer_steps), notes});
  }
  if (!configs.front().command.empty()) {
    std::cout << "\nSetups as configured (your command reads its own data: "
              << (a.train_size > 0 ? std::to_string(a.train_size) + " train, from --train-size"
                                   : std::string("steps per epoch need --train-size N"))
              << ")\n";
  } else {
    const config::DataSizes sizes = data_sizes_of(a, configs.front());
    std::cout << "\nSetups as configured (" << config::to_string(configs.front().dataset) << ": "
              << config::describe_data_sizes(sizes) << ")\n";
  }
  table.print(std::cout);
  if (unequal)
    std::cout << "* global batch differs from " << configs.front().label << " (" << first_global
              << "): the curves will differ unless the learning rate compensates\n";
  // Your command: what each setup will run, {run_dir} and the port as a run would get them.
  bool header = false;
  for (const auto& c : configs) {
    if (c.command.empty()) continue;
    if (!header) std::cout << "\nYour command, as each setup will run it:\n";
    header = true;
    std::cout << "  " << c.label << ": " << preview_command(c, "<db>.logs/run-N", 0) << "\n";
  }
}

std::string indices_text(const config::Batch& batch, int64_t max_indices) {
  std::string text = "[";
  const size_t shown =
      max_indices > 0 ? std::min(batch.size(), static_cast<size_t>(max_indices)) : batch.size();
  for (size_t i = 0; i < shown; ++i) text += (i ? ", " : "") + std::to_string(batch[i]);
  if (shown < batch.size()) text += ", ... +" + std::to_string(batch.size() - shown) + " more";
  return text + "] (" + std::to_string(batch.size()) + ")";
}

void print_shards(const PlanArgs& a, const RunConfig& c) {
  const int64_t n = train_size_of(a, c);
  const int64_t seed = c.effective_data_seed() + a.epoch;
  const std::vector<int64_t> order = config::epoch_permutation(n, seed);
  std::vector<std::vector<config::Batch>> per_rank;
  for (int r = 0; r < c.num_processes; ++r) {
    per_rank.push_back(config::shard_batches(order, config::shard_options(c, r)));
  }
  std::cout << "\nShard plan of " << c.label << ": epoch " << a.epoch << ", order = randperm(" << n
            << ") with a generator seeded " << seed << " (data_seed " << c.effective_data_seed()
            << " + epoch " << a.epoch << ")\n  batches per rank:";
  for (const auto& b : per_rank) std::cout << " " << b.size();
  std::cout << "\n";
  const int k = c.gradient_accumulation_steps;
  size_t longest = 0;
  for (const auto& b : per_rank) longest = std::max(longest, b.size());
  for (int64_t step = 0; step < a.steps; ++step) {
    for (int micro = 0; micro < k; ++micro) {
      const size_t index = static_cast<size_t>(step * k + micro);
      if (index >= longest) return;
      std::cout << "  step " << step + 1;
      if (k > 1) std::cout << " micro-batch " << micro + 1 << "/" << k;
      std::cout << "\n";
      for (int r = 0; r < c.num_processes; ++r) {
        const auto& batches = per_rank[static_cast<size_t>(r)];
        std::cout << "    rank " << r << ": "
                  << (index < batches.size() ? indices_text(batches[index], a.max_indices)
                                             : "(no batch)")
                  << "\n";
      }
    }
  }
}

int plan_command(const PlanArgs& a) {
  const std::vector<RunConfig> configs = setups_of(a);
  print_equivalent_table(a, configs);
  print_setup_table(a, configs);
  if (a.shards)
    for (const auto& c : configs) print_shards(a, c);
  return kExitOk;
}

}  // namespace

void add_plan_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<PlanArgs>();
  CLI::App* sub = app.add_subcommand(
      "plan", "equivalent-batch table, what each setup does, and the shard plan (no training)");
  sub->footer(
      "Setups come from --set FILE, --config FILE and/or the config flags; with none, the seed's "
      "presets 1x256, 2x128 and 8x32 are shown.");
  a->config.add_to(*sub);
  sub->add_option("--set", a->set_file, "a set file of setups (as run-set takes)");
  sub->add_option("--reference-batch,--reference_batch", a->reference_batches,
                  "single-device reference batches, e.g. 256,128,64,32")
      ->capture_default_str();
  sub->add_option("--train-size,--train_size", a->train_size,
                  "training samples (default: read from the data)")
      ->check(above_zero());
  sub->add_flag("--shards", a->shards, "also print the sample indices each rank takes per step");
  sub->add_option("--epoch", a->epoch, "shard plan: epoch (0-based)")
      ->capture_default_str()
      ->check(zero_or_more());
  sub->add_option("--steps", a->steps, "shard plan: optimizer steps to print")
      ->capture_default_str()
      ->check(above_zero());
  sub->add_option("--max-indices,--max_indices", a->max_indices,
                  "shard plan: indices shown per batch (0 = all)")
      ->capture_default_str()
      ->check(zero_or_more());
  sub->callback([a, exit_code] { *exit_code = plan_command(*a); });
}

}  // namespace parity::cli

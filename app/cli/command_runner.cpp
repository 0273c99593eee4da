#include "command_runner.h"

#include <parity/config/batch_plan.h>
#include <parity/config/run_facts.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>
#include <parity/launch/command_supervisor.h>
#include <parity/launch/command_template.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/rank_supervisor.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"

namespace parity::cli {

namespace {

std::optional<double> number_of(const std::string& json_text) {
  try {
    size_t used = 0;
    const double v = std::stod(json_text, &used);
    if (used == json_text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string plain(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::vector<std::pair<std::string, std::string>> env_pairs(const config::RunConfig& c) {
  std::vector<std::pair<std::string, std::string>> env;
  for (const std::string& kv : c.command_env) {
    const auto eq = kv.find('=');
    env.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
  }
  return env;
}

// The trainer_state.json or TensorBoard files the command writes under {run_dir}, followed
// while it runs with import's readers; each call hands on what is new.
class FileCapture {
 public:
  FileCapture(std::string run_dir, std::string mode)
      : run_dir_(std::move(run_dir)), mode_(std::move(mode)) {}

  void operator()(bool parity_steps, std::vector<launch::StepRecord>& steps,
                  std::vector<launch::EvalRecord>& evals) {
    if (mode_ == "stdout" || (mode_ == "auto" && parity_steps)) return;
    try {
      if (!reader_ && !find()) return;
      if (!reader_->poll() && !first_) return;
      first_ = false;
      const ingest::ImportedRun run = reader_->run({});
      note_hparams(run.facts);
      for (const ingest::ImportedPoint& p : run.points) {
        if (p.step <= last_step_) continue;
        launch::StepRecord s;
        s.step = p.step;
        s.loss = p.loss;
        s.lr = std::isfinite(p.lr) ? p.lr : 0;
        s.epoch = std::isfinite(p.epoch) ? p.epoch : 0;
        steps.push_back(s);
        last_step_ = p.step;
      }
      int epoch = 0;
      for (const ingest::ImportedEval& e : run.evals) {
        ++epoch;
        if (e.step <= last_eval_) continue;
        launch::EvalRecord r;
        r.epoch = epoch;
        r.step = e.step;
        r.loss = e.loss;
        r.accuracy = e.accuracy.value_or(-1);
        evals.push_back(r);
        last_eval_ = e.step;
      }
    } catch (const ingest::IngestError&) {
      // A file half written: read again at the next call.
    }
  }

 private:
  // The first run under {run_dir} with steps whose format the mode accepts.
  bool find() {
    for (auto& r : ingest::find_runs(run_dir_)) {
      r->poll();
      const ingest::ImportedRun probe = r->run({});
      if (probe.points.empty()) continue;  // nothing written yet: look again at the next call
      if (mode_ == "trainer-state" && probe.format != "trainer_state") continue;
      if (mode_ == "tensorboard" && probe.format != "tensorboard") continue;
      if (probe.format != "trainer_state" && probe.format != "tensorboard") continue;
      reader_ = std::move(r);
      return true;
    }
    return false;
  }

  // What the files say the command ran with, named as hparams_mismatch() reads them.
  void note_hparams(const config::RunFacts& f) {
    auto put = [&](const char* name, const auto& fact) {
      if (fact.has_value() && fact.provenance == config::Provenance::kKnown)
        hparams[name] = std::to_string(*fact);
    };
    put("per_device_train_batch_size", f.per_device_batch_size);
    put("gradient_accumulation_steps", f.gradient_accumulation_steps);
    put("num_processes", f.num_processes);
    put("seed", f.seed);
  }

 public:
  std::map<std::string, std::string> hparams;  ///< read from the files so far

 private:
  std::string run_dir_, mode_;
  std::unique_ptr<ingest::RunReader> reader_;
  bool first_ = true;
  int64_t last_step_ = 0, last_eval_ = 0;
};

}  // namespace

config::RunFacts command_facts(const config::RunConfig& c) {
  using config::Fact;
  const std::string from = "the setup (your command)";
  config::RunFacts f;
  f.num_processes = Fact<int64_t>::known(c.num_processes, from);
  f.per_device_batch_size = Fact<int64_t>::known(c.per_device_batch_size, from);
  f.gradient_accumulation_steps = Fact<int64_t>::known(c.gradient_accumulation_steps, from);
  f.learning_rate = Fact<double>::known(c.lr, from);
  f.lr_scaling = Fact<std::string>::known(config::to_string(c.lr_scaling), from);
  f.seed = Fact<int64_t>::known(c.seed, from);
  f.mixed_precision = Fact<std::string>::known(config::to_string(c.mixed_precision), from);
  f.epochs = Fact<int64_t>::known(c.epochs, from);
  return f;
}

std::string hparams_mismatch(const std::map<std::string, std::string>& hparams,
                             const config::RunConfig& c) {
  // The names training scripts log (transformers' TrainingArguments, Accelerate's), each with
  // the setup's value as the command should have used it.
  const std::pair<const char*, double> expected[] = {
      {"per_device_train_batch_size", static_cast<double>(c.per_device_batch_size)},
      {"per_device_batch_size", static_cast<double>(c.per_device_batch_size)},
      {"gradient_accumulation_steps", static_cast<double>(c.gradient_accumulation_steps)},
      {"num_processes", static_cast<double>(c.num_processes)},
      {"world_size", static_cast<double>(c.num_processes)},
      {"learning_rate", config::effective_lr(c)},
      {"seed", static_cast<double>(c.seed)},
  };
  std::string out;
  for (const auto& [name, want] : expected) {
    const auto it = hparams.find(name);
    if (it == hparams.end()) continue;
    const auto got = number_of(it->second);
    if (got && std::abs(*got - want) <= 1e-9 * std::max(1.0, std::abs(want))) continue;
    out += std::string(out.empty() ? "" : "; ") + "the command logged " + name + " " + it->second +
           ", the setup says " + plain(want);
  }
  return out;
}

std::string preview_command(const config::RunConfig& config, const std::string& run_dir,
                            int64_t run_id) {
  launch::CommandContext context;
  context.run_dir = run_dir;
  context.run_id = run_id;
  context.main_process_port = 29500;
  const auto words = launch::split_command(config.command);
  return launch::quote_command(
      launch::expand_command(words, launch::command_values(config, context)));
}

void require_command(const config::RunConfig& config) {
  if (config.command.empty()) return;
  try {
    preview_command(config, "RUN_DIR", 0);
  } catch (const launch::LaunchError& e) {
    throw UsageError(std::string("--command: ") + e.what());
  }
}

CommandRunResult run_command_setup(int64_t run_id, const config::RunConfig& config,
                                   const CommandRunOptions& options, launch::StepSink& sink) {
  CommandRunResult out;
  std::vector<std::string> words;
  launch::CommandOptions command;
  try {
    launch::CommandContext context;
    context.run_dir = options.run_dir;
    context.run_id = run_id;
    context.main_process_port = launch::free_port();
    words = launch::expand_command(launch::split_command(config.command),
                                   launch::command_values(config, context));
  } catch (const launch::LaunchError& e) {
    out.message = e.what();
    return out;
  }
  out.command = launch::quote_command(words);
  if (options.on_command) options.on_command(out.command);
  std::cerr << "[" << config.label << "] runs " << out.command << "\n";

  command.workdir = config.workdir;
  command.env = env_pairs(config);
  command.log_path = options.run_dir + "/command.log";
  command.hang_timeout_s = options.hang_timeout_s;
  command.samples_per_step = config::global_batch_size(config);
  command.stop = options.stop;
  const auto capture = std::make_shared<FileCapture>(options.run_dir, config.capture);
  if (config.capture != "stdout") {
    command.side_capture = [capture](bool parity, auto& steps, auto& evals) {
      (*capture)(parity, steps, evals);
    };
  }
  const auto started = std::chrono::steady_clock::now();
  launch::CommandResult result;
  try {
    result = launch::CommandSupervisor(words, command).run(sink);
  } catch (const launch::LaunchError& e) {
    out.message = e.what();
    return out;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.outcome = result.outcome;
  out.message = result.message;
  if (seconds > 0 && result.steps > 0)
    out.samples_per_s = result.steps * config::global_batch_size(config) / seconds;
  // What its files said counts as what it logged (its own PARITY hparams line first).
  for (const auto& [name, value] : capture->hparams) result.hparams.emplace(name, value);
  out.mismatch = hparams_mismatch(result.hparams, config);
  if (!out.mismatch.empty()) std::cerr << "[" << config.label << "] " << out.mismatch << "\n";
  if (result.protocol_errors > 0) {
    std::cerr << "[" << config.label << "] " << result.protocol_errors
              << " PARITY line(s) did not parse (see " << command.log_path << ")\n";
  }
  return out;
}

void mark_command_run(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                      const std::string& command) {
  // A command run is judged on its facts: the values the setup gave its command are known;
  // what the command does with its own model and data (their size, its sampler) is not
  // Parity's to say.
  db.set_origin(run_id, storage::RunOrigin::kCommand, command);
  db.set_facts(run_id, config::to_json(command_facts(config)), "");
}

void note_mismatch(storage::Database& db, int64_t run_id, const std::string& mismatch) {
  if (mismatch.empty()) return;
  const auto row = db.get_run(run_id);
  db.set_notes(run_id, (row && !row->notes.empty() ? row->notes + "; " : "") + mismatch);
}

}  // namespace parity::cli

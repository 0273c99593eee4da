// `import`: runs trained elsewhere, read from what their trackers wrote (parity_ingest), stored
// as imported runs with their facts (parity_imported_runs writes them); `--follow` keeps reading
// a run that is still being written.
// `set`: fills or corrects an imported run's facts later.
#include <parity/config/run_facts.h>
#include <parity/imported_runs/store_imported_run.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include "cli_common.h"
#include "commands.h"
#include "run_facts_text.h"
#include "table.h"

namespace parity::cli {
namespace {

using config::Fact;

// The facts a user gives on the command line, with Accelerate's spellings. Given facts are
// known, and replace what the files said.
struct FactFlags {
  int64_t num_processes = 0, per_device_batch_size = 0, gradient_accumulation_steps = 0, seed = 0,
          train_samples = 0, threads_per_rank = 0, epochs = 0;
  double learning_rate = 0;
  std::string lr_scaling, mixed_precision, use_seedable_sampler, schedule, model;
  std::vector<std::pair<std::string, CLI::Option*>> given;

  void add(CLI::App& sub) {
    auto opt = [&](const char* names, auto* value, const char* help) {
      CLI::Option* o = sub.add_option(names, *value, help);
      given.emplace_back(std::string(names).substr(0, std::string(names).find(',')), o);
      return o;
    };
    opt("--num-processes,--num_processes", &num_processes, "processes the run trained on")
        ->check(CLI::PositiveNumber);
    opt("--per-device-batch-size,--per_device_batch_size,--per-device-train-batch-size",
        &per_device_batch_size, "batch per device (per process)")
        ->check(CLI::PositiveNumber);
    opt("--gradient-accumulation-steps,--gradient_accumulation_steps", &gradient_accumulation_steps,
        "gradient accumulation steps")
        ->check(CLI::PositiveNumber);
    opt("--learning-rate,--learning_rate,--lr", &learning_rate, "the base learning rate");
    opt("--lr-scaling,--lr_scaling", &lr_scaling, "none|linear|sqrt")
        ->check(CLI::IsMember({"none", "linear", "sqrt"}));
    opt("--seed", &seed, "set_seed's seed");
    opt("--mixed-precision,--mixed_precision", &mixed_precision, "no|bf16|fp16")
        ->check(CLI::IsMember({"no", "bf16", "fp16"}));
    opt("--use-seedable-sampler,--use_seedable_sampler", &use_seedable_sampler,
        "true|false: Accelerate's use_seedable_sampler (data order)")
        ->check(CLI::IsMember({"true", "false"}));
    opt("--train-samples,--train_samples", &train_samples, "training samples")
        ->check(CLI::PositiveNumber);
    // The facts an import most often leaves unknown (a log rarely says them).
    opt("--scheduler,--lr-scheduler-type,--lr_scheduler_type", &schedule,
        "constant|linear|cosine|step|onecycle: the lr schedule")
        ->check(CLI::IsMember({"constant", "linear", "cosine", "step", "onecycle"}));
    opt("--threads-per-rank,--threads_per_rank", &threads_per_rank,
        "intra-op threads of each rank")
        ->check(CLI::PositiveNumber);
    opt("--model", &model, "the model in words (\"mlp, dropout 0.25\")");
    opt("--epochs", &epochs, "epochs the run trained")->check(CLI::PositiveNumber);
  }

  bool any() const {
    for (const auto& [name, o] : given)
      if (o->count() > 0) return true;
    return false;
  }

  bool has(const std::string& name) const {
    for (const auto& [n, o] : given)
      if (n == name) return o->count() > 0;
    return false;
  }

  void apply(config::RunFacts& f, const std::string& verb) const {
    const std::string by = "given (parity-cli " + verb + " ";
    if (has("--num-processes"))
      f.num_processes = Fact<int64_t>::known(num_processes, by + "--num-processes)");
    if (has("--per-device-batch-size")) {
      f.per_device_batch_size =
          Fact<int64_t>::known(per_device_batch_size, by + "--per-device-batch-size)");
    }
    if (has("--gradient-accumulation-steps")) {
      f.gradient_accumulation_steps =
          Fact<int64_t>::known(gradient_accumulation_steps, by + "--gradient-accumulation-steps)");
    }
    if (has("--learning-rate"))
      f.learning_rate = Fact<double>::known(learning_rate, by + "--learning-rate)");
    if (has("--lr-scaling"))
      f.lr_scaling = Fact<std::string>::known(lr_scaling, by + "--lr-scaling)");
    if (has("--seed")) f.seed = Fact<int64_t>::known(seed, by + "--seed)");
    if (has("--mixed-precision")) {
      f.mixed_precision = Fact<std::string>::known(mixed_precision, by + "--mixed-precision)");
    }
    if (has("--use-seedable-sampler")) {
      f.use_seedable_sampler =
          Fact<bool>::known(use_seedable_sampler == "true", by + "--use-seedable-sampler)");
    }
    if (has("--train-samples"))
      f.train_samples = Fact<int64_t>::known(train_samples, by + "--train-samples)");
    if (has("--scheduler")) f.schedule = Fact<std::string>::known(schedule, by + "--scheduler)");
    if (has("--threads-per-rank")) {
      f.threads_per_rank = Fact<int64_t>::known(threads_per_rank, by + "--threads-per-rank)");
    }
    if (has("--model") && !model.empty())
      f.model = Fact<std::string>::known(model, by + "--model)");
    if (has("--epochs")) f.epochs = Fact<int64_t>::known(epochs, by + "--epochs)");
  }
};

struct ImportArgs {
  std::string db, label;
  std::vector<std::string> paths;
  ingest::ImportOptions tags;
  FactFlags facts;
  bool dry_run = false, follow = false;
  double interval = 1.0;
};

void print_run(const ingest::ImportedRun& run, const std::string& label) {
  std::cout << label << "  (" << run.format << ", " << run.source_path << ")\n  "
            << run.points.size() << " steps of "
            << (run.loss_tag.empty() ? "no loss" : run.loss_tag) << ", " << run.evals.size()
            << " evaluations";
  if (run.damaged_files > 0) std::cout << ", " << run.damaged_files << " damaged file(s)";
  std::cout << "\n";
  for (const std::string& n : run.notes) std::cout << "  note: " << n << "\n";
  print_facts(std::cout, run.facts, "  ");
}

volatile std::sig_atomic_t g_stop = 0;

int import_command(ImportArgs& a) {
  std::vector<std::unique_ptr<ingest::RunReader>> readers;
  for (const std::string& path : a.paths) {
    try {
      auto found = ingest::find_runs(path);
      if (found.empty())
        throw UsageError("no runs in " + path +
                         " (no " + ingest::formats_in_words() + ")");
      for (auto& r : found) readers.push_back(std::move(r));
    } catch (const ingest::IngestError& e) {
      throw UsageError(e.what());
    }
  }
  if (!a.label.empty() && readers.size() > 1)
    throw UsageError("--label names one run; " + std::to_string(readers.size()) + " were found");
  std::optional<storage::Database> db;
  if (!a.dry_run) db.emplace(db_or_default(a.db));
  int damaged = 0, unreadable = 0;
  // Long imports show progress: one line per run before it is read (the window's progress bar
  // reads the same lines).
  if (!a.dry_run) std::cerr << "found " << readers.size() << " run(s)\n";
  auto import_once = [&](bool first) {
    int64_t added = 0;
    size_t index = 0;
    for (auto& reader : readers) {
      ++index;
      if (first && !a.dry_run) {
        std::cerr << "importing run " << index << " of " << readers.size() << ": "
                  << terminal_safe(reader->name()) << std::endl;
      }
      // One run that cannot be read is said and skipped; the others are imported.
      ingest::ImportedRun run;
      try {
        if (!reader->poll() && !first) continue;
        run = reader->run(a.tags);
      } catch (const ingest::IngestError& e) {
        if (first) {
          ++unreadable;
          std::cerr << "parity-cli: " << reader->name() << ": " << e.what() << "; not imported\n";
        }
        continue;
      }
      a.facts.apply(run.facts, "import");
      const std::string label = a.label.empty() ? run.name : a.label;
      if (first) damaged += run.damaged_files;
      if (a.dry_run) {
        print_run(run, label);
        continue;
      }
      const storage::ImportOutcome out = imported_runs::store(*db, run, label);
      added += out.steps_added;
      if (first || out.steps_added > 0) {
        std::cout << "run " << out.run_id << "  " << label << ": "
                  << (out.created ? "imported " : "already imported, added ") << out.steps_added
                  << " steps, " << out.evals_added << " evaluations";
        if (!run.facts.setup_known())
          std::cout << " (setup unknown: give the facts with `parity-cli set`)";
        std::cout << "\n";
        if (first)
          for (const std::string& n : run.notes) std::cout << "  note: " << n << "\n";
      }
    }
    return added;
  };
  import_once(true);
  if (unreadable > 0 && unreadable == static_cast<int>(readers.size()))
    throw UsageError("no run could be read");
  if (damaged > 0)
    std::cerr << "parity-cli: " << damaged
              << " damaged file(s) read up to the damage (see the notes)\n";
  if (a.follow && !a.dry_run) {
    std::signal(SIGINT, [](int) { g_stop = 1; });
    std::signal(SIGTERM, [](int) { g_stop = 1; });
    std::cerr << "following " << readers.size() << " run(s); Ctrl+C stops\n";
    while (!g_stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(a.interval * 1000)));
      import_once(false);
    }
  }
  return unreadable > 0 ? kExitFailed : kExitOk;
}

struct SetArgs {
  std::string db, run;
  FactFlags facts;
};

int set_command(const SetArgs& a) {
  storage::Database db = open_existing_db(db_or_default(a.db));
  const int64_t id = parse_id(a.run, "RUN");
  const auto row = db.get_run(id);
  if (!row) throw UsageError("no run " + std::to_string(id) + " in " + db.path());
  if (row->origin == storage::RunOrigin::kEngine) {
    throw UsageError("run " + std::to_string(id) +
                     " was trained by Parity's engine: its facts are its config");
  }
  if (!a.facts.any())
    throw UsageError("set: give at least one fact (--num-processes, --per-device-batch-size, ...)");
  config::RunFacts facts = config::run_facts_from_json(row->facts_json);
  a.facts.apply(facts, "set");
  imported_runs::store_facts(db, id, facts, row->label);
  std::cout << "run " << id << "  " << row->label << ":\n";
  print_facts(std::cout, facts, "  ");
  return kExitOk;
}

}  // namespace

void add_import_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ImportArgs>();
  CLI::App* sub = app.add_subcommand(
      "import",
      "import runs trained elsewhere: TensorBoard logdirs (Accelerate, transformers, torch)");
  sub->footer(
      "Each PATH is a logdir, a run folder or a file. Every run found becomes a Parity run with "
      "its "
      "facts, each known (read from a file), derived (how is said) or unknown; the flags fill or "
      "correct them. Importing again appends only new steps.");
  add_db_option(*sub, &a->db);
  sub->add_option("PATH", a->paths, "logdirs, run folders or files")->required();
  a->facts.add(*sub);
  sub->add_option("--label", a->label, "the run's label (one run only)");
  sub->add_option("--loss-tag,--loss_tag", a->tags.loss_tag,
                  "the series read as the training loss");
  sub->add_option("--lr-tag,--lr_tag", a->tags.lr_tag, "the series read as the learning rate");
  sub->add_option("--eval-loss-tag,--eval_loss_tag", a->tags.eval_loss_tag,
                  "the evaluation loss series");
  sub->add_flag("--dry-run,--dry_run", a->dry_run,
                "list what would be imported and each run's facts");
  sub->add_flag("--follow", a->follow, "keep reading runs still being written (Ctrl+C stops)");
  sub->add_option("--interval", a->interval, "seconds between reads when following")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
  sub->callback([a, exit_code] { *exit_code = import_command(*a); });
}

void add_set_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<SetArgs>();
  CLI::App* sub = app.add_subcommand("set", "fill or correct an imported run's facts");
  add_db_option(*sub, &a->db);
  sub->add_option("RUN", a->run, "the run id")->required();
  a->facts.add(*sub);
  sub->callback([a, exit_code] { *exit_code = set_command(*a); });
}

}  // namespace parity::cli

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
#include <functional>
#include <iostream>
#include <memory>
#include <thread>
#include <type_traits>

#include "cli_common.h"
#include "commands.h"
#include "run_facts_text.h"
#include "table.h"

namespace parity::cli {
namespace {

using config::Fact;

// One fact's flag: the option CLI11 fills, and what writes its value into the facts.
struct FactFlag {
  std::string flag;
  CLI::Option* option = nullptr;
  std::function<void(config::RunFacts&, const std::string& by)> apply;
};

// "none|linear|sqrt: help", "none|linear|sqrt", "help".
std::string flag_help(const config::FactField& field, const std::vector<std::string>& choices) {
  std::string words;
  for (const std::string& c : choices) words += (words.empty() ? "" : "|") + c;
  const std::string help(field.help);
  if (words.empty() || help.empty()) return words + help;
  return words + ": " + help;
}

// The option of one fact, read as T: its flag and aliases, its help, and its check (a count is
// positive, a fact of a few words takes only those). A bool is read as true|false.
template <class T>
FactFlag add_fact_flag(CLI::App& sub, const config::FactField& field,
                       Fact<T> config::RunFacts::*m) {
  using Stored = std::conditional_t<std::is_same_v<T, bool>, std::string, T>;
  auto value = std::make_shared<Stored>();
  const std::vector<std::string> choices = config::fact_choices(field);
  std::string names(field.flag);
  if (!field.aliases.empty()) names += "," + std::string(field.aliases);
  CLI::Option* o = sub.add_option(names, *value, flag_help(field, choices));
  if (!choices.empty()) o->check(CLI::IsMember(choices));
  if (field.positive) o->check(CLI::PositiveNumber);
  const std::string flag(field.flag);
  auto apply = [value, m, flag](config::RunFacts& f, const std::string& by) {
    if constexpr (std::is_same_v<T, bool>) {
      f.*m = Fact<bool>::known(*value == "true", by + flag + ")");
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!value->empty()) f.*m = Fact<std::string>::known(*value, by + flag + ")");
    } else {
      f.*m = Fact<T>::known(*value, by + flag + ")");
    }
  };
  return {flag, o, apply};
}

// The facts a user gives on the command line, one flag per fact of config::for_each_fact_field()
// with Accelerate's spellings. Given facts are known, and replace what the files said.
struct FactFlags {
  std::vector<FactFlag> flags;

  void add(CLI::App& sub) {
    config::for_each_fact_field([&](const config::FactField& field, auto member) {
      flags.push_back(add_fact_flag(sub, field, member));
    });
  }

  bool any() const {
    for (const FactFlag& f : flags)
      if (f.option->count() > 0) return true;
    return false;
  }

  void apply(config::RunFacts& facts, const std::string& verb) const {
    const std::string by = "given (parity-cli " + verb + " ";
    for (const FactFlag& f : flags)
      if (f.option->count() > 0) f.apply(facts, by);
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
        throw UsageError("no runs in " + path + " (no " + ingest::formats_in_words() + ")");
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

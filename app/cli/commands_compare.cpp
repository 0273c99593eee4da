// `compare`: the parity verdict of runs against a reference run, in the terminal; `report`: the
// same comparison as a file to send (HTML, PDF, CSV). Both read parity::report's one model.
#include <parity/report/report_writer.h>

#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"

namespace parity::cli {
namespace {

struct CompareArgs {
  std::string db, reference, axis = analysis::to_string(analysis::Axis::kSamples);
  std::vector<std::string> runs;
  double abs_tolerance = 1e-4, rel_tolerance = 1e-3, ema = 0;
  bool no_seed_groups = false;
  std::string out;  ///< report only
};

// --axis choices as the help lists them: the default (samples) first.
constexpr analysis::Axis kAxisChoices[] = {analysis::Axis::kSamples, analysis::Axis::kStep,
                                           analysis::Axis::kEpoch, analysis::Axis::kWallTime};

std::string axis_choices(const std::string& separator) {
  std::string out;
  for (analysis::Axis axis : kAxisChoices)
    out += (out.empty() ? "" : separator) + analysis::to_string(axis);
  return out;
}

analysis::Axis parse_axis(const std::string& s) {
  if (const auto axis = analysis::parse_axis(s)) return *axis;
  throw UsageError("--axis: '" + s + "' is not allowed; must be one of " + axis_choices(", "));
}

report::Report build(const CompareArgs& a, bool for_report) {
  storage::Database db = open_for_viewing(db_or_default(a.db));
  report::ReportOptions options;
  options.compare.axis = parse_axis(a.axis);
  options.compare.abs_tolerance = a.abs_tolerance;
  options.compare.rel_tolerance = a.rel_tolerance;
  options.compare.ema_weight = a.ema;
  options.compare.use_seed_groups = !a.no_seed_groups;
  // `compare` prints no proofs and keeps its "not comparable" rows for a reference without steps.
  options.with_proofs = for_report;
  options.require_steps = for_report;
  std::vector<int64_t> ids;
  for (const auto& r : a.runs)
    for (int64_t id : parse_id_list(r, "RUN")) ids.push_back(id);
  const int64_t reference = parse_id(a.reference, "--reference");
  return report::build_report(db, reference, ids, options);
}

int compare_command(const CompareArgs& a) {
  // The verdict as the report model holds it, in the terminal's words (its text writer).
  report::writer_named("text")->write(build(a, false), std::cout);
  return kExitOk;
}

int report_command(const CompareArgs& a) {
  if (!report::writer_for_path(a.out)) {
    std::string known;
    for (const auto& e : report::file_extensions()) known += (known.empty() ? "." : ", .") + e;
    throw UsageError("--out: '" + a.out + "' must end in " + known);
  }
  const report::Report r = build(a, true);
  report::write_report_file(r, a.out);
  std::cerr << "wrote the report of " << r.comparison.rows.size() - 1 << " run"
            << (r.comparison.rows.size() == 2 ? "" : "s") << " vs run " << r.comparison.reference_id
            << " to " << a.out << "\n";
  return kExitOk;
}

// The flags `compare` and `report` share: the database, the runs and the verdict's options.
void add_verdict_flags(CLI::App& sub, CompareArgs* a) {
  add_db_option(sub, &a->db);
  sub.add_option("--reference,-r", a->reference, "the reference run id")->required();
  sub.add_option("RUN", a->runs, "runs to compare (ids; 1,2 or 1 2)");
  sub.add_option("--axis", a->axis, axis_choices("|"))->capture_default_str();
  sub.add_option("--abs-tolerance,--abs_tolerance", a->abs_tolerance,
                 "allowed |Δloss| where no seed group gives a noise floor")
      ->capture_default_str();
  sub.add_option("--rel-tolerance,--rel_tolerance", a->rel_tolerance,
                 "plus this share of the reference loss")
      ->capture_default_str();
  sub.add_option("--ema", a->ema, "EMA weight applied to every curve before comparing (0 = raw)")
      ->check(CLI::Range(0.0, 0.999999));
  sub.add_flag("--no-seed-groups,--no_seed_groups", a->no_seed_groups,
               "do not take the noise floor from runs that differ only in seed");
}

}  // namespace

void add_compare_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "the parity verdict: is each run equivalent to the reference run, and if not, why");
  sub->footer(
      "Runs are aligned on samples seen (the axis on which different global batches compare) and "
      "judged against the seed noise floor or the tolerance.\nWithout RUN ids every other run with "
      "steps is compared.");
  add_verdict_flags(*sub, a.get());
  sub->callback([a, exit_code] { *exit_code = compare_command(*a); });
}

void add_report_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "report", "the comparison as a file to send: HTML, PDF or CSV (by --out's extension)");
  sub->footer(
      "The HTML is one self-contained file (inline SVG plots, no script, no network): the question "
      "and the answer, the loss curves and the delta plot, the verdict, the proofs, the config "
      "differences, the equivalent-batch table, each run's facts and the environment. The PDF is "
      "the same for A4. The CSV is export --report's. Written whole or not at all.");
  add_verdict_flags(*sub, a.get());
  sub->add_option("--out,-o", a->out, "FILE.html, FILE.pdf or FILE.csv")->required();
  sub->callback([a, exit_code] { *exit_code = report_command(*a); });
}

}  // namespace parity::cli

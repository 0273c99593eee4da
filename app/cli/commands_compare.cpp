// `compare`: the parity verdict of runs against a reference run.
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "compare_loader.h"
#include "table.h"

namespace parity::cli {
namespace {

struct CompareArgs {
  std::string db, reference, axis = analysis::to_string(analysis::Axis::kSamples);
  std::vector<std::string> runs;
  double abs_tolerance = 1e-4, rel_tolerance = 1e-3, ema = 0;
  bool no_seed_groups = false;
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

std::string signed_fmt(const std::optional<double>& v, double scale = 1, const char* unit = "") {
  if (!v) return "";
  const double x = *v * scale;
  return (x > 0 ? "+" : "") + fmt(x, 3) + unit;
}

int compare_command(const CompareArgs& a) {
  storage::Database db = open_for_viewing(db_or_default(a.db));
  analysis::CompareOptions options;
  options.axis = parse_axis(a.axis);
  options.abs_tolerance = a.abs_tolerance;
  options.rel_tolerance = a.rel_tolerance;
  options.ema_weight = a.ema;
  options.use_seed_groups = !a.no_seed_groups;
  std::vector<int64_t> ids;
  for (const auto& r : a.runs)
    for (int64_t id : parse_id_list(r, "RUN")) ids.push_back(id);
  const int64_t reference = parse_id(a.reference, "--reference");
  const analysis::Comparison cmp = compare_in_db(db, reference, ids, options);

  std::cout << "reference: run " << cmp.reference_id << " (" << cmp.rows.front().label
            << "), aligned on " << analysis::to_string(cmp.axis);
  if (cmp.target_loss) std::cout << ", target loss " << fmt(*cmp.target_loss);
  std::cout << "\n\n";
  Table table({"run", "label", "verdict", "max |Δloss|", "final |Δloss|", "mean |Δloss|",
               "Δ eval loss", "Δ accuracy", "samples/s", "scaling eff."});
  for (const auto& r : cmp.rows) {
    const bool is_ref = r.verdict == analysis::Verdict::kReference;
    table.add({std::to_string(r.id), r.label, analysis::to_string(r.verdict),
               is_ref ? "" : fmt(r.delta.max_abs, 3), is_ref ? "" : fmt(r.delta.final_abs, 3),
               is_ref ? "" : fmt(r.delta.mean_abs, 3),
               is_ref ? "" : signed_fmt(r.final_eval_loss_delta),
               is_ref ? "" : signed_fmt(r.final_accuracy_delta, 100, " pt"),
               r.samples_per_s > 0 ? fmt(r.samples_per_s, 5) : "",
               r.scaling_efficiency ? fmt(100 * *r.scaling_efficiency, 3) + "%" : ""});
  }
  table.print(std::cout);

  for (const auto& r : cmp.rows) {
    if (r.verdict == analysis::Verdict::kReference) continue;
    std::cout << "\nrun " << r.id << " (" << r.label << "): " << r.summary << "\n";
    for (const auto& reason : r.reasons) std::cout << "  - " << reason.text << "\n";
    for (const auto& info : r.info) std::cout << "  · " << info.text << "\n";
    if (!r.delta.range_note.empty()) std::cout << "  note: " << r.delta.range_note << "\n";
    if (!r.noise_source.empty())
      std::cout << "  noise floor " << fmt(r.noise_floor, 3) << " (" << r.noise_source << ")\n";
    if (!r.config_diff.empty()) std::cout << "  config diff: " << join_diff(r.config_diff) << "\n";
  }
  for (const auto& g : cmp.groups) {
    std::cout << "\nseed group:";
    for (int64_t id : g.run_ids) std::cout << " " << id;
    std::cout << "  spread " << fmt(g.spread, 3) << "\n";
  }
  return kExitOk;
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
  add_db_option(*sub, &a->db);
  sub->add_option("--reference,-r", a->reference, "the reference run id")->required();
  sub->add_option("RUN", a->runs, "runs to compare (ids; 1,2 or 1 2)");
  sub->add_option("--axis", a->axis, axis_choices("|"))->capture_default_str();
  sub->add_option("--abs-tolerance,--abs_tolerance", a->abs_tolerance,
                  "allowed |Δloss| where no seed group gives a noise floor")
      ->capture_default_str();
  sub->add_option("--rel-tolerance,--rel_tolerance", a->rel_tolerance,
                  "plus this share of the reference loss")
      ->capture_default_str();
  sub->add_option("--ema", a->ema, "EMA weight applied to every curve before comparing (0 = raw)")
      ->check(CLI::Range(0.0, 0.999999));
  sub->add_flag("--no-seed-groups,--no_seed_groups", a->no_seed_groups,
                "do not take the noise floor from runs that differ only in seed");
  sub->callback([a, exit_code] { *exit_code = compare_command(*a); });
}

}  // namespace parity::cli

// The CSV report (`export --report`, `report --out FILE.csv`): the runs table of the compared runs
// with one column group per verdict metric after the finals.
#include <parity/storage/csv.h>

#include <algorithm>

#include "builtin_writers.h"

namespace parity::report {
namespace {

std::string join_texts(const std::vector<analysis::Reason>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r.text;
  return out;
}

std::string join_diff(const std::vector<analysis::ConfigDiff>& diff) {
  std::string out;
  for (const auto& d : diff)
    out += (out.empty() ? "" : "; ") + d.key + ": " + d.value + " vs " + d.reference;
  return out;
}

class CsvWriter : public ReportWriter {
 public:
  std::string name() const override { return "csv"; }
  std::string extension() const override { return "csv"; }

  void write(const Report& report, std::ostream& out) const override {
    const analysis::Comparison& cmp = report.comparison;
    auto num = [](double v) { return storage::format_number(v); };
    auto opt = [](const std::optional<double>& v) {
      return v ? storage::format_number(*v) : std::string();
    };
    storage::RunsCsvExtra extra;
    extra.columns = {"reference_run",
                     "verdict",
                     "summary",
                     "reasons",
                     "info",
                     "differing_keys",
                     "max_abs_delta",
                     "max_rel_delta",
                     "final_abs_delta",
                     "final_rel_delta",
                     "mean_abs_delta",
                     "epoch_max_abs_delta",
                     "final_eval_loss_delta",
                     "final_accuracy_delta",
                     "samples_to_target",
                     "time_to_target_s",
                     "per_device_samples_per_s",
                     "scaling_efficiency",
                     "noise_floor",
                     "noise_source",
                     "range_note"};
    for (const auto& r : cmp.rows) {
      const bool is_ref = r.verdict == analysis::Verdict::kReference;
      extra.values[r.id] = {std::to_string(cmp.reference_id),
                            analysis::to_string(r.verdict),
                            r.summary,
                            join_texts(r.reasons),
                            join_texts(r.info),
                            join_diff(r.config_diff),
                            is_ref ? "" : num(r.delta.max_abs),
                            is_ref ? "" : num(r.delta.max_rel),
                            is_ref ? "" : num(r.delta.final_abs),
                            is_ref ? "" : num(r.delta.final_rel),
                            is_ref ? "" : num(r.delta.mean_abs),
                            is_ref ? "" : num(r.epoch_delta.max_abs),
                            opt(r.final_eval_loss_delta),
                            opt(r.final_accuracy_delta),
                            opt(r.samples_to_target),
                            opt(r.time_to_target_s),
                            num(r.per_device_samples_per_s),
                            opt(r.scaling_efficiency),
                            num(r.noise_floor),
                            r.noise_source,
                            r.delta.range_note};
    }
    storage::write_runs_csv(report.runs, out, extra);
  }
};

}  // namespace

std::unique_ptr<ReportWriter> make_csv_writer() { return std::make_unique<CsvWriter>(); }

}  // namespace parity::report

// The terminal's verdict (`parity-cli compare`): the table, then each run's reasons.
#include <parity/report/text_table.h>

#include "builtin_writers.h"

namespace parity::report {
namespace {

std::string signed_text(const std::optional<double>& v, double scale = 1, const char* unit = "") {
  if (!v) return "";
  const double x = *v * scale;
  return (x > 0 ? "+" : "") + format_g(x, 3) + unit;
}

std::string diff_text(const std::vector<analysis::ConfigDiff>& diff) {
  std::string out;
  for (const auto& d : diff)
    out += (out.empty() ? "" : "; ") + d.key + ": " + d.value + " vs " + d.reference;
  return out;
}

class TextWriter : public ReportWriter {
 public:
  std::string name() const override { return "text"; }
  std::string extension() const override { return "txt"; }

  void write(const Report& report, std::ostream& out) const override {
    const analysis::Comparison& cmp = report.comparison;
    out << "reference: run " << cmp.reference_id << " (" << cmp.rows.front().label
        << "), aligned on " << analysis::to_string(cmp.axis);
    if (cmp.target_loss) out << ", target loss " << format_g(*cmp.target_loss);
    out << "\n\n";
    Table table({"run", "label", "verdict", "max |Δloss|", "final |Δloss|", "mean |Δloss|",
                 "Δ eval loss", "Δ accuracy", "samples/s", "scaling eff."});
    for (const auto& r : cmp.rows) {
      const bool is_ref = r.verdict == analysis::Verdict::kReference;
      table.add({std::to_string(r.id), r.label, analysis::to_string(r.verdict),
                 is_ref ? "" : format_g(r.delta.max_abs, 3),
                 is_ref ? "" : format_g(r.delta.final_abs, 3),
                 is_ref ? "" : format_g(r.delta.mean_abs, 3),
                 is_ref ? "" : signed_text(r.final_eval_loss_delta),
                 is_ref ? "" : signed_text(r.final_accuracy_delta, 100, " pt"),
                 r.samples_per_s > 0 ? format_g(r.samples_per_s, 5) : "",
                 r.scaling_efficiency ? format_g(100 * *r.scaling_efficiency, 3) + "%" : ""});
    }
    table.print(out);

    for (const auto& r : cmp.rows) {
      if (r.verdict == analysis::Verdict::kReference) continue;
      out << "\nrun " << r.id << " (" << r.label << "): " << r.summary << "\n";
      for (const auto& reason : r.reasons) out << "  - " << reason.text << "\n";
      for (const auto& info : r.info) out << "  · " << info.text << "\n";
      if (!r.delta.range_note.empty()) out << "  note: " << r.delta.range_note << "\n";
      if (!r.noise_source.empty())
        out << "  noise floor " << format_g(r.noise_floor, 3) << " (" << r.noise_source << ")\n";
      if (!r.config_diff.empty()) out << "  config diff: " << diff_text(r.config_diff) << "\n";
    }
    for (const auto& g : cmp.groups) {
      out << "\nseed group:";
      for (int64_t id : g.run_ids) out << " " << id;
      out << "  spread " << format_g(g.spread, 3) << "\n";
    }
  }
};

}  // namespace

std::unique_ptr<ReportWriter> make_text_writer() { return std::make_unique<TextWriter>(); }

}  // namespace parity::report

#include "compare_loader.h"

#include <parity/report/report_writer.h>
#include <parity/stored_runs/compare_runs.h>

namespace parity::cli {

analysis::Comparison compare_in_db(const storage::Database& db, int64_t reference,
                                   const std::vector<int64_t>& others,
                                   const analysis::CompareOptions& options) {
  return stored_runs::compare_stored(db, reference, report::compared_ids(db, reference, others),
                                     options);
}

std::string join_diff(const std::vector<analysis::ConfigDiff>& diff) {
  std::string out;
  for (const auto& d : diff)
    out += (out.empty() ? "" : "; ") + d.key + ": " + d.value + " vs " + d.reference;
  return out;
}

std::string join_reasons(const std::vector<analysis::Reason>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r.text;
  return out;
}

void write_report_csv(const storage::Database& db, int64_t reference,
                      const std::vector<int64_t>& others, std::ostream& out,
                      const analysis::CompareOptions& options) {
  report::ReportOptions report_options;
  report_options.compare = options;
  report_options.with_proofs = false;
  report_options.require_steps = false;
  report::writer_named("csv")->write(report::build_report(db, reference, others, report_options),
                                     out);
}

}  // namespace parity::cli

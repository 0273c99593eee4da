#include "run_facts_text.h"

#include <iomanip>
#include <sstream>
#include <string_view>

#include "cli_common.h"

namespace parity::cli {

namespace {

template <class T>
std::string value_text(const config::Fact<T>& f) {
  if (!f.has_value()) return "-";
  std::ostringstream s;
  if constexpr (std::is_same_v<T, bool>) {
    s << (*f ? "true" : "false");
  } else if constexpr (std::is_same_v<T, double>) {
    s << fmt(*f, 7);
  } else {
    s << *f;
  }
  return s.str();
}

template <class T>
void line(std::ostream& out, const std::string& indent, std::string_view name,
          const config::Fact<T>& f) {
  out << indent << std::left << std::setw(24) << name << std::setw(10) << value_text(f)
      << to_string(f.has_value() ? f.provenance : config::Provenance::kUnknown);
  if (f.has_value() && !f.source.empty()) out << " (" << f.source << ")";
  out << "\n";
}

}  // namespace

void print_facts(std::ostream& out, const config::RunFacts& f, const std::string& indent) {
  config::for_each_fact_field([&](const config::FactField& field, auto member) {
    line(out, indent, field.label, f.*member);
  });
}

void print_stored_facts(std::ostream& out, const storage::RunRow& row) {
  if (row.origin == storage::RunOrigin::kEngine && row.facts_json.empty()) return;
  out << "origin: " << storage::to_string(row.origin);
  if (!row.source_path.empty()) out << " from " << row.source_path;
  out << "\nfacts:\n";
  try {
    print_facts(out, config::run_facts_from_json(row.facts_json), "  ");
  } catch (const std::invalid_argument& e) {
    out << "  (stored facts do not load: " << e.what() << ")\n";
  }
}

}  // namespace parity::cli

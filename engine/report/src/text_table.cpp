#include <parity/report/text_table.h>

#include <algorithm>
#include <cctype>

namespace parity::report {
namespace {

bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  if (s == "nan" || s == "inf" || s == "-inf") return true;
  return std::all_of(s.begin(), s.end(),
                     [](char c) {
                       return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                              c == '+' || c == 'e' || c == '%' || c == '/' || c == ':';
                     }) &&
         (std::isdigit(static_cast<unsigned char>(s.back())) || s.back() == '%');
}

// Width in characters, counting a UTF-8 sequence (x, delta) as one.
size_t display_width(const std::string& s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string terminal_safe(const std::string& text, Breaks breaks) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char byte) {
    static const char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == '\n' && breaks == Breaks::kKeep) {
      out += '\n';
    } else if (c < 0x20 || c == 0x7f) {
      escape(c);
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080-U+009F, CSI among them
      escape(next);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void Table::print(std::ostream& out) const {
  std::vector<size_t> width(header_.size(), 0);
  for (size_t c = 0; c < header_.size(); ++c) width[c] = display_width(header_[c]);
  for (const auto& row : rows_)
    for (size_t c = 0; c < header_.size() && c < row.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));

  auto line = [&](const std::vector<std::string>& cells, bool is_header) {
    std::string text;
    for (size_t c = 0; c < header_.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(width[c] - display_width(cell), ' ');
      const bool right = !is_header && looks_numeric(cell);
      if (c > 0) text += "  ";
      text += right ? pad + cell : cell + (c + 1 < header_.size() ? pad : "");
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  line(header_, true);
  for (const auto& row : rows_) line(row, false);
}

}  // namespace parity::report

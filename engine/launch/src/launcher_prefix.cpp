#include <parity/launch/launcher_prefix.h>

namespace parity::launch {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Digits [from, to) as a number, saturating past a million (no task or rank is that high, and a
// long run of digits must not overflow).
int number(std::string_view s, size_t from, size_t to) {
  int n = 0;
  for (size_t i = from; i < to; ++i) n = n > 1000000 ? n : n * 10 + (s[i] - '0');
  return n;
}

// torchrun's "[<role><n>]:" (role: letters, '_' or '-', maybe none), then at most one space.
std::optional<std::pair<int, std::string_view>> split_torchrun_prefix(std::string_view line) {
  if (line.empty() || line.front() != '[') return std::nullopt;
  size_t i = 1;
  while (i < line.size() && i < 64 &&
         ((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z') ||
          line[i] == '_' || line[i] == '-'))
    ++i;
  const size_t digits = i;
  while (i < line.size() && is_digit(line[i]) && i - digits < 8) ++i;
  if (i == digits || i + 1 >= line.size() || line[i] != ']' || line[i + 1] != ':')
    return std::nullopt;
  const int n = number(line, digits, i);
  i += 2;
  if (i < line.size() && line[i] == ' ') ++i;
  return std::make_pair(n, line.substr(i));
}

}  // namespace

std::optional<std::pair<int, std::string_view>> split_srun_label(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ' && i < 16) ++i;
  const size_t digits = i;
  while (i < line.size() && is_digit(line[i]) && i - digits < 8) ++i;
  if (i == digits || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != ' ')
    return std::nullopt;
  return std::make_pair(number(line, digits, i), line.substr(i + 2));
}

LauncherLine strip_launcher_prefixes(std::string_view line) {
  LauncherLine out;
  out.text = line;
  // A few levels at most: launchers nest two deep in practice (srun around torchrun).
  for (int depth = 0; depth < 4; ++depth) {
    auto split = split_srun_label(out.text);
    if (!split) split = split_torchrun_prefix(out.text);
    if (!split) break;
    ++out.prefixes;
    out.from_rank0 = out.from_rank0 && split->first == 0;
    out.text = split->second;
  }
  return out;
}

}  // namespace parity::launch

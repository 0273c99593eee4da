#include <parity/config/batch_plan.h>
#include <parity/launch/command_template.h>
#include <parity/launch/launch_error.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace parity::launch {

const std::vector<std::string>& command_placeholders() {
  static const std::vector<std::string> names = {"num_processes",
                                                 "per_device_batch_size",
                                                 "gradient_accumulation_steps",
                                                 "learning_rate",
                                                 "seed",
                                                 "mixed_precision",
                                                 "num_machines",
                                                 "main_process_port",
                                                 "run_dir",
                                                 "run_id",
                                                 "label"};
  return names;
}

namespace {

std::string known_list() {
  std::string s;
  for (const auto& n : command_placeholders()) s += (s.empty() ? "{" : ", {") + n + "}";
  return s;
}

bool is_known(const std::string& name) {
  const auto& names = command_placeholders();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Walks one word's placeholders: calls literal(text) for literal runs and field(name) for each
// {name}. Throws for an unclosed or unknown placeholder.
template <typename Literal, typename Field>
void scan_word(const std::string& word, size_t index, Literal literal, Field field) {
  const std::string where = " in word " + std::to_string(index + 1) + " '" + word + "'";
  for (size_t i = 0; i < word.size();) {
    const char c = word[i];
    if ((c == '{' || c == '}') && i + 1 < word.size() && word[i + 1] == c) {
      literal(std::string(1, c));
      i += 2;
    } else if (c == '{') {
      const size_t close = word.find('}', i + 1);
      if (close == std::string::npos) throw LaunchError("unclosed '{'" + where);
      const std::string name = word.substr(i + 1, close - i - 1);
      if (!is_known(name)) {
        throw LaunchError("unknown placeholder {" + name + "}" + where +
                          "; known: " + known_list() + " (write {{ and }} for literal braces)");
      }
      field(name);
      i = close + 1;
    } else if (c == '}') {
      throw LaunchError("a lone '}'" + where + " (write }} for a literal brace)");
    } else {
      literal(std::string(1, c));
      ++i;
    }
  }
}

}  // namespace

std::vector<std::string> split_command(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  size_t i = 0;
  auto column = [&](size_t at) { return " at column " + std::to_string(at + 1); };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '\'') {
      const size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) throw LaunchError("unterminated ' quote" + column(i));
      word.append(text.substr(i + 1, close - i - 1));
      in_word = true;
      i = close + 1;
    } else if (c == '"') {
      const size_t open = i++;
      in_word = true;
      for (;;) {
        if (i >= text.size()) throw LaunchError("unterminated \" quote" + column(open));
        const char d = text[i];
        if (d == '"') break;
        if (d == '\\' && i + 1 < text.size()) {
          const char e = text[i + 1];
          if (e == '"' || e == '\\' || e == '$' || e == '`') {
            word += e;
            i += 2;
            continue;
          }
          if (e == '\n') {
            i += 2;
            continue;
          }
        }
        word += d;
        ++i;
      }
      ++i;  // the closing quote
    } else if (c == '\\') {
      if (i + 1 >= text.size()) throw LaunchError("a trailing backslash" + column(i));
      if (text[i + 1] != '\n') {
        word += text[i + 1];
        in_word = true;
      }
      i += 2;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(word);
  if (words.empty()) throw LaunchError("the command is empty");
  return words;
}

std::vector<std::string> used_placeholders(const std::vector<std::string>& words) {
  std::vector<std::string> used;
  for (size_t w = 0; w < words.size(); ++w) {
    scan_word(
        words[w], w, [](const std::string&) {},
        [&](const std::string& name) {
          if (std::find(used.begin(), used.end(), name) == used.end()) used.push_back(name);
        });
  }
  return used;
}

std::vector<std::string> expand_command(const std::vector<std::string>& words,
                                        const std::map<std::string, std::string>& values) {
  std::vector<std::string> out;
  out.reserve(words.size());
  for (size_t w = 0; w < words.size(); ++w) {
    std::string word;
    scan_word(
        words[w], w, [&](const std::string& text) { word += text; },
        [&](const std::string& name) {
          const auto it = values.find(name);
          if (it == values.end()) {
            throw LaunchError("{" + name + "} has no value for this setup (word " +
                              std::to_string(w + 1) + " '" + words[w] + "')");
          }
          word += it->second;
        });
    out.push_back(word);
  }
  return out;
}

std::string quote_command(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& w : words) {
    const bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    });
    if (!line.empty()) line += ' ';
    if (plain) {
      line += w;
      continue;
    }
    line += '\'';
    for (char c : w) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

namespace {

std::string shortest(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

std::map<std::string, std::string> command_values(const config::RunConfig& config,
                                                  const CommandContext& context) {
  return {
      {"num_processes", std::to_string(config.num_processes)},
      {"per_device_batch_size", std::to_string(config.per_device_batch_size)},
      {"gradient_accumulation_steps", std::to_string(config.gradient_accumulation_steps)},
      {"learning_rate", shortest(config::effective_lr(config))},
      {"seed", std::to_string(config.seed)},
      {"mixed_precision", config::to_string(config.mixed_precision)},
      {"num_machines", std::to_string(context.num_machines)},
      {"main_process_port", std::to_string(context.main_process_port)},
      {"run_dir", context.run_dir},
      {"run_id", std::to_string(context.run_id)},
      {"label", config.label},
  };
}

}  // namespace parity::launch

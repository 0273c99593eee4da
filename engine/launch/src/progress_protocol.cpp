#include <parity/launch/progress_protocol.h>

#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>

// Line format (fields separated by one space; text last, percent-encoded for '%', control
// characters and DEL, so spaces stay readable and a line stays one line):
//   B total_steps steps_per_epoch train_samples test_samples effective_lr blas_warning...
//   S step epoch samples loss lr time_s n_ranks rank_loss_0 ... rank_loss_{n-1}
//   E epoch step samples loss accuracy
//   X outcome samples_per_s message...
//   H rank step
// Numbers go through std::to_chars/from_chars: shortest round-trip form, "nan"/"inf" included,
// and independent of the process locale (a Qt GUI sets LC_NUMERIC from the environment).

namespace parity::launch {
namespace {

constexpr int64_t kMaxRanks = 1 << 16;

void put(std::string& out, double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out += ' ';
  out.append(buf, ec == std::errc() ? end : buf);
}
void put(std::string& out, int64_t v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out += ' ';
  out.append(buf, ec == std::errc() ? end : buf);
}
// Text with '%', control characters and (in a word, which is followed by other fields) spaces
// escaped as %XX.
void put_escaped(std::string& out, const std::string& text, bool escape_space) {
  static const char* kHex = "0123456789ABCDEF";
  out += ' ';
  for (unsigned char c : text) {
    if (c == '%' || c < 0x20 || c == 0x7f || (escape_space && c == ' ')) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
}
void put_text(std::string& out, const std::string& text) { put_escaped(out, text, false); }
void put_word(std::string& out, const std::string& text) { put_escaped(out, text, true); }

struct Encoder {
  std::string out;
  void operator()(const RunStart& m) {
    out = "B";
    put(out, m.total_steps);
    put(out, m.steps_per_epoch);
    put(out, m.train_samples);
    put(out, m.test_samples);
    put(out, m.effective_lr);
    put_word(out, to_json(m.model));
    put_text(out, m.blas_warning);
  }
  void operator()(const StepRecord& m) {
    out = "S";
    put(out, m.step);
    put(out, m.epoch);
    put(out, m.samples);
    put(out, m.loss);
    put(out, m.lr);
    put(out, m.time_s);
    put(out, static_cast<int64_t>(m.rank_losses.size()));
    for (double v : m.rank_losses) put(out, v);
  }
  void operator()(const EvalRecord& m) {
    out = "E";
    put(out, static_cast<int64_t>(m.epoch));
    put(out, m.step);
    put(out, m.samples);
    put(out, m.loss);
    put(out, m.accuracy);
  }
  void operator()(const RunEnd& m) {
    out = "X " + to_string(m.outcome);
    put(out, m.samples_per_s);
    put_text(out, m.message);
  }
  void operator()(const Heartbeat& m) {
    out = "H";
    put(out, static_cast<int64_t>(m.rank));
    put(out, m.step);
  }
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Reads fields left to right; any malformed field makes ok() false and every later read a no-op.
class Reader {
 public:
  explicit Reader(std::string_view line) : rest_(line) {}
  bool ok() const { return ok_; }
  bool at_end() const { return rest_.empty(); }

  std::string_view token() {
    if (!ok_ || rest_.empty() || rest_.front() != ' ') return fail();
    rest_.remove_prefix(1);
    const size_t end = rest_.find(' ');
    std::string_view t = rest_.substr(0, end);
    rest_.remove_prefix(t.size());
    if (t.empty()) return fail();
    return t;
  }
  template <class T>
  T number() {
    std::string_view t = token();
    T v{};
    if (!ok_) return v;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size()) fail();
    return v;
  }
  // One escaped field up to the next space.
  std::string word() {
    const std::string_view t = token();
    return ok_ ? unescape(t, 0) : std::string();
  }
  // The rest of the line.
  std::string text() {
    // An empty text may have lost its separating space to a transport that trims lines.
    if (!ok_ || rest_.empty()) return std::string();
    if (rest_.front() != ' ') return fail(), std::string();
    std::string out = unescape(rest_, 1);
    rest_ = {};
    return out;
  }

 private:
  std::string unescape(std::string_view in, size_t from) {
    std::string out;
    for (size_t i = from; i < in.size(); ++i) {
      const char c = in[i];
      if (c != '%') {
        out += c;
        continue;
      }
      const int hi = i + 2 < in.size() ? hex_value(in[i + 1]) : -1;
      const int lo = hi >= 0 ? hex_value(in[i + 2]) : -1;
      if (lo < 0) return fail(), std::string();
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    return out;
  }

  std::string_view fail() {
    ok_ = false;
    return {};
  }
  std::string_view rest_;
  bool ok_ = true;
};

std::optional<RunOutcome> parse_outcome(std::string_view s) {
  for (RunOutcome o :
       {RunOutcome::kFinished, RunOutcome::kDiverged, RunOutcome::kFailed, RunOutcome::kStopped}) {
    if (s == to_string(o)) return o;
  }
  return std::nullopt;
}

std::optional<ProgressMessage> decode(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty()) return std::nullopt;
  const char tag = line.front();
  Reader in(line.substr(1));
  std::optional<ProgressMessage> message;
  if (line.size() >= 2 && line[1] != ' ') return std::nullopt;
  switch (tag) {
    case 'B': {
      RunStart m;
      m.total_steps = in.number<int64_t>();
      m.steps_per_epoch = in.number<int64_t>();
      m.train_samples = in.number<int64_t>();
      m.test_samples = in.number<int64_t>();
      m.effective_lr = in.number<double>();
      const std::string model = in.word();
      m.blas_warning = in.text();
      if (!in.ok()) return std::nullopt;
      try {
        m.model = config::model_summary_from_json(model);
      } catch (const std::invalid_argument&) {
        return std::nullopt;
      }
      message = m;
      break;
    }
    case 'S': {
      StepRecord m;
      m.step = in.number<int64_t>();
      m.epoch = in.number<double>();
      m.samples = in.number<int64_t>();
      m.loss = in.number<double>();
      m.lr = in.number<double>();
      m.time_s = in.number<double>();
      const int64_t ranks = in.number<int64_t>();
      if (!in.ok() || ranks < 0 || ranks > kMaxRanks) return std::nullopt;
      for (int64_t r = 0; r < ranks && in.ok(); ++r) m.rank_losses.push_back(in.number<double>());
      message = m;
      break;
    }
    case 'E': {
      EvalRecord m;
      m.epoch = in.number<int>();
      m.step = in.number<int64_t>();
      m.samples = in.number<int64_t>();
      m.loss = in.number<double>();
      m.accuracy = in.number<double>();
      message = m;
      break;
    }
    case 'X': {
      RunEnd m;
      const auto outcome = parse_outcome(in.token());
      if (!outcome) return std::nullopt;
      m.outcome = *outcome;
      m.samples_per_s = in.number<double>();
      m.message = in.text();
      message = m;
      break;
    }
    case 'H': {
      Heartbeat m;
      m.rank = in.number<int>();
      m.step = in.number<int64_t>();
      message = m;
      break;
    }
    default:
      return std::nullopt;
  }
  if (!in.ok() || !in.at_end()) return std::nullopt;
  return message;
}

}  // namespace

std::string encode_line(const ProgressMessage& message) {
  Encoder encoder;
  std::visit(encoder, message);
  encoder.out += '\n';
  return encoder.out;
}

std::optional<ProgressMessage> decode_line(const std::string& line) {
  try {
    return decode(line);
  } catch (...) {  // only allocation can throw here; a bad line is never an exception
    return std::nullopt;
  }
}

}  // namespace parity::launch

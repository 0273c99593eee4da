#include <fcntl.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/progress_protocol.h>
#include <parity/launch/steps_file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace parity::launch {
namespace {

// A lone line longer than this is no record (a rank record of 64k ranks is about 1.5 MB).
constexpr size_t kMaxLine = 8u << 20;

std::string text_line(char tag, const std::string& text) {
  return std::string(1, tag) + " " + nlohmann::json(text).dump() + "\n";
}

std::optional<std::string> text_of(const std::string& line) {
  if (line.size() < 3 || line[1] != ' ') return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(line.substr(2));
    if (j.is_string()) return j.get<std::string>();
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;
}

}  // namespace

std::string encode_steps_line(const StepsFileEntry& entry) {
  if (const auto* n = std::get_if<StepsFileNote>(&entry)) return text_line('N', n->text);
  if (const auto* c = std::get_if<StepsFileCommand>(&entry)) return text_line('C', c->text);
  return std::visit(
      [](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, StepsFileNote> || std::is_same_v<T, StepsFileCommand>) {
          return {};
        } else {
          return encode_line(ProgressMessage(m));
        }
      },
      entry);
}

std::optional<StepsFileEntry> decode_steps_line(const std::string& raw) {
  std::string line = raw;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.empty()) return std::nullopt;
  if (line[0] == 'N' || line[0] == 'C') {
    const auto text = text_of(line);
    if (!text) return std::nullopt;
    if (line[0] == 'N') return StepsFileNote{*text};
    return StepsFileCommand{*text};
  }
  const auto message = decode_line(line);
  if (!message) return std::nullopt;
  return std::visit(
      [](const auto& m) -> std::optional<StepsFileEntry> {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Heartbeat>) {
          return std::nullopt;
        } else {
          return StepsFileEntry(m);
        }
      },
      *message);
}

StepsFileWriter::StepsFileWriter(const std::string& path, double sync_interval_s)
    : path_(path), sync_interval_s_(sync_interval_s), last_sync_(std::chrono::steady_clock::now()) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd_ < 0)
    throw LaunchError("cannot open the steps file " + path + ": " + std::strerror(errno));
}

StepsFileWriter::~StepsFileWriter() {
  if (fd_ < 0) return;
  if (dirty_) ::fdatasync(fd_);
  ::close(fd_);
}

void StepsFileWriter::append(const StepsFileEntry& entry, bool sync_now) {
  if (failure_) return;  // nothing after a gap: what is there stays a prefix of the run
  const std::string line = encode_steps_line(entry);
  // One write() per line: O_APPEND places it whole at the end, so a reader never sees two
  // records interleaved, only the last one cut short while it is being written.
  const ssize_t n = ::write(fd_, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size())) {
    failure_ = "cannot write the steps file " + path_ + ": " +
               (n < 0 ? std::strerror(errno) : "a short write (the disk is full?)");
    return;
  }
  dirty_ = true;
  sync(sync_now);
}

void StepsFileWriter::sync(bool now) const {
  if (!dirty_ || fd_ < 0 || failure_) return;
  const auto t = std::chrono::steady_clock::now();
  if (!now && std::chrono::duration<double>(t - last_sync_).count() < sync_interval_s_) return;
  if (::fdatasync(fd_) != 0 && errno != EINVAL)
    failure_ = "cannot sync the steps file " + path_ + ": " + std::strerror(errno);
  dirty_ = false;
  last_sync_ = t;
}

std::optional<std::string> StepsFileWriter::failure() const {
  sync(false);
  return failure_;
}

void StepsFileWriter::on_start(const RunStart& start) { append(start, true); }
void StepsFileWriter::on_step(const StepRecord& record) { append(record, false); }
void StepsFileWriter::on_eval(const EvalRecord& record) { append(record, false); }
void StepsFileWriter::on_end(const RunEnd&) { sync(true); }
void StepsFileWriter::note(const std::string& text) { append(StepsFileNote{text}, false); }
void StepsFileWriter::command(const std::string& text) { append(StepsFileCommand{text}, true); }
void StepsFileWriter::end(const RunEnd& end) {
  failure_.reset();  // the end is tried even after a failed write: it says why
  append(end, true);
}

std::vector<StepsFileEntry> StepsFileReader::poll() {
  std::vector<StepsFileEntry> out;
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return out;
    throw LaunchError("cannot read the steps file " + path_ + ": " + std::strerror(errno));
  }
  exists_ = true;
  char buf[65536];
  off_t at = static_cast<off_t>(offset_ + static_cast<int64_t>(partial_.size()));
  while (true) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += n;
    size_t from = 0;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] != '\n') continue;
      partial_.append(buf + from, static_cast<size_t>(i) - from);
      offset_ += static_cast<int64_t>(partial_.size()) + 1;
      if (skipping_) {
        skipping_ = false;
      } else if (auto entry = decode_steps_line(partial_)) {
        out.push_back(std::move(*entry));
      } else if (!partial_.empty()) {
        ++bad_lines_;
      }
      partial_.clear();
      from = static_cast<size_t>(i) + 1;
    }
    partial_.append(buf + from, static_cast<size_t>(n) - from);
    if (partial_.size() > kMaxLine) {
      // No record is this long: it is skipped whole, up to its end.
      offset_ += static_cast<int64_t>(partial_.size());
      partial_.clear();
      if (!skipping_) ++bad_lines_;
      skipping_ = true;
    }
  }
  ::close(fd);
  return out;
}

}  // namespace parity::launch

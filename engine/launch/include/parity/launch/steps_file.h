#pragma once
/// A run's steps file: what a batch job (`parity-cli run --launcher slurm --submit`) writes as
/// it trains, in the run's folder on the disk the cluster shares, and what a follower
/// (`parity-cli follow`) reads from there into the database, on another machine maybe, while
/// the job runs or long after. Not SQLite: SQLite's locks must not be relied on over NFS, and a
/// file appended by one writer needs none. Torch-free, POSIX.
///
/// One record per line, never rewritten: the progress protocol's lines (progress_protocol.h:
/// B the start, S a step with every rank's loss, E an evaluation, X the end; numbers written
/// round-trip exact) and two of the steps file's own, a JSON string behind the tag:
///   C "the command as it ran"      (a command run's expanded command)
///   N "a note for the run"         (what the command's own hparams disagree with)
/// Each line is appended with one write() (O_APPEND), so a reader finds the lines written so
/// far and at most one line cut short at the end, which it leaves for its next read.

#include <parity/launch/step_record.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace parity::launch {

/// The file's name in the run's folder.
inline constexpr const char* kStepsFileName = "steps";

struct StepsFileNote {
  std::string text;
};
struct StepsFileCommand {
  std::string text;
};
using StepsFileEntry =
    std::variant<RunStart, StepRecord, EvalRecord, RunEnd, StepsFileNote, StepsFileCommand>;

/// The line of one entry, '\n' included.
std::string encode_steps_line(const StepsFileEntry& entry);
/// One line's entry (with or without '\n'); nullopt for a line that is none (a heartbeat too).
std::optional<StepsFileEntry> decode_steps_line(const std::string& line);

/// Appends a run's records, as the StepSink the job's supervisor reports to. What is written is
/// synced to the disk (fdatasync) within sync_interval_s, and at once for the start and the end:
/// an NFS client keeps what is written in its own cache until it is synced, where a follower on
/// another machine cannot see it. A sync that falls due between records is done by failure(),
/// which the supervisors poll every ~50 ms. on_end only syncs: the job writes its end record with
/// end(), once its own outcome is known (a command's samples/s, its notes before it).
/// Single-threaded.
class StepsFileWriter : public StepSink {
 public:
  /// Opens (creating, 0600, never following a symlink) `path` for appending; throws LaunchError.
  explicit StepsFileWriter(const std::string& path, double sync_interval_s = 0.5);
  ~StepsFileWriter() override;
  StepsFileWriter(const StepsFileWriter&) = delete;
  StepsFileWriter& operator=(const StepsFileWriter&) = delete;

  void on_start(const RunStart& start) override;
  void on_step(const StepRecord& record) override;
  void on_eval(const EvalRecord& record) override;
  void on_end(const RunEnd& end) override;
  /// A write that failed (disk full, the folder gone): the supervisor then stops the run.
  /// Also syncs what was written once the interval has passed.
  std::optional<std::string> failure() const override;

  void note(const std::string& text);
  void command(const std::string& text);
  /// The end record, synced. Call once, last.
  void end(const RunEnd& end);

 private:
  void append(const StepsFileEntry& entry, bool sync_now);
  void sync(bool now) const;
  std::string path_;
  int fd_ = -1;
  double sync_interval_s_;
  // Changed by the syncs failure() does.
  mutable std::chrono::steady_clock::time_point last_sync_;
  mutable bool dirty_ = false;
  mutable std::optional<std::string> failure_;
};

/// Reads a steps file on from where it stopped. Each poll() opens the file anew, which makes an
/// NFS client revalidate what it cached of it (close-to-open consistency), reads what was
/// appended since the last poll, and returns the records of its complete lines; a line not yet
/// ended is kept and read whole at a later poll. A file not there yet reads as empty (the job
/// has not started). Lines that are no record are counted and skipped.
class StepsFileReader {
 public:
  explicit StepsFileReader(std::string path) : path_(std::move(path)) {}
  /// Throws LaunchError when the file exists but cannot be read (permissions).
  std::vector<StepsFileEntry> poll();
  const std::string& path() const { return path_; }
  int64_t offset() const { return offset_; }  ///< bytes of complete lines read so far
  int64_t bad_lines() const { return bad_lines_; }
  bool exists() const { return exists_; }

 private:
  std::string path_;
  int64_t offset_ = 0;
  std::string partial_;
  int64_t bad_lines_ = 0;
  bool exists_ = false;
  bool skipping_ = false;  ///< inside a line past any record's length, up to its end
};

}  // namespace parity::launch

#pragma once
/// The live progress line of a run on stderr: step/total, epoch, loss, samples/s and ETA.
/// On a terminal it is rewritten in place (\r) at most ten times a second; otherwise (a log file,
/// the GUI reading a pipe) one line is printed every few seconds.

#include <parity/launch/step_record.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace parity::cli {

struct ProgressOptions {
  bool quiet = false;          ///< print nothing
  bool tty = false;            ///< rewrite one line in place
  double line_interval_s = 5;  ///< not a tty: seconds between lines
};

class ProgressLine {
 public:
  /// tty defaults to isatty(stderr).
  explicit ProgressLine(std::string label, ProgressOptions options);
  static ProgressOptions detect(bool quiet);

  void start(const launch::RunStart& start);
  void step(const launch::StepRecord& record);
  void eval(const launch::EvalRecord& record);
  /// Ends the in-place line (a newline on a tty).
  void finish();

 private:
  void print(const std::string& text, bool force);
  std::string label_;
  ProgressOptions options_;
  int64_t total_steps_ = 0;
  bool line_open_ = false;
  std::chrono::steady_clock::time_point last_print_{};
};

}  // namespace parity::cli

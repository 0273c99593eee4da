#include "progress_line.h"

#include <unistd.h>

#include <cstdio>

#include "cli_common.h"

namespace parity::cli {

ProgressLine::ProgressLine(std::string label, ProgressOptions options)
    : label_(std::move(label)), options_(options) {}

ProgressOptions ProgressLine::detect(bool quiet) {
  ProgressOptions o;
  o.quiet = quiet;
  o.tty = ::isatty(STDERR_FILENO) == 1;
  return o;
}

void ProgressLine::start(const launch::RunStart& start) {
  total_steps_ = start.total_steps;
  if (!start.blas_warning.empty()) {
    // Loud even when quiet: a slow BLAS makes every number that follows misleading.
    std::fprintf(stderr, "WARNING: %s\n", start.blas_warning.c_str());
  }
  if (options_.quiet) return;
  // The user's own command plans nothing Parity can see: its steps come as it reports them.
  if (start.total_steps == 0 && start.train_samples == 0 && start.effective_lr == 0) return;
  const std::string evaluation = start.test_samples > 0
                                     ? std::to_string(start.test_samples) + " evaluate"
                                     : "none evaluate (no test data: no evaluation)";
  std::fprintf(stderr,
               "[%s] %lld optimizer steps (%lld per epoch), %lld samples train, %s, "
               "effective lr %s\n",
               label_.c_str(), static_cast<long long>(start.total_steps),
               static_cast<long long>(start.steps_per_epoch),
               static_cast<long long>(start.train_samples), evaluation.c_str(),
               fmt(start.effective_lr).c_str());
}

void ProgressLine::step(const launch::StepRecord& r) {
  if (options_.quiet) return;
  const double rate = r.time_s > 0 ? static_cast<double>(r.samples) / r.time_s : 0;
  std::string text = "[" + label_ + "] step " + std::to_string(r.step);
  if (total_steps_ > 0) text += "/" + std::to_string(total_steps_);
  text += "  epoch " + fmt(r.epoch, 3) + "  loss " + fmt(r.loss, 5) + "  " +
          std::to_string(static_cast<long long>(rate)) + " samples/s";
  if (total_steps_ > 0 && r.step > 0 && r.time_s > 0) {
    const double eta =
        r.time_s / static_cast<double>(r.step) * static_cast<double>(total_steps_ - r.step);
    text += "  ETA " + fmt_duration(eta);
  }
  print(text, r.step == total_steps_);
}

void ProgressLine::eval(const launch::EvalRecord& r) {
  if (options_.quiet) return;
  std::string text =
      "[" + label_ + "] epoch " + std::to_string(r.epoch) + " eval loss " + fmt(r.loss, 5);
  if (r.accuracy >= 0) text += "  accuracy " + fmt(100 * r.accuracy, 4) + "%";
  finish();
  std::fprintf(stderr, "%s\n", text.c_str());
}

void ProgressLine::finish() {
  if (line_open_) std::fputc('\n', stderr);
  line_open_ = false;
}

void ProgressLine::print(const std::string& text, bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_print_).count();
  if (options_.tty) {
    if (!force && since < 0.1) return;
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    line_open_ = true;
  } else {
    if (!force && since < options_.line_interval_s) return;
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  last_print_ = now;
}

}  // namespace parity::cli

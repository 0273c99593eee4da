#include <parity/storage/step_writer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

namespace parity::storage {

StepWriter::StepWriter(const std::string& db_path, StepWriterOptions options)
    : path_(db_path), options_(options) {
  options_.batch_rows = std::max<size_t>(options_.batch_rows, 1);
  auto db = std::make_unique<Database>(path_);
  thread_ = std::thread([this, db = std::move(db)] { loop(*db); });
}

StepWriter::~StepWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  // A destructor cannot throw; losing rows without a word would be worse than a line on stderr.
  if (!error_.empty()) std::fprintf(stderr, "parity: %s\n", error_.c_str());
}

void StepWriter::push(StepRow row) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t before = steps_.size() + evals_.size();
  steps_.push_back(std::move(row));
  ++pushed_;
  // Wake the writer for the first row of a batch (to start its clock) and when a batch is full.
  if (before == 0 || before + 1 >= options_.batch_rows) cv_.notify_one();
}

void StepWriter::push(EvalRow row) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t before = steps_.size() + evals_.size();
  evals_.push_back(std::move(row));
  ++pushed_;
  if (before == 0 || before + 1 >= options_.batch_rows) cv_.notify_one();
}

void StepWriter::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = pushed_;
  ++flush_waiting_;
  cv_.notify_all();
  flushed_cv_.wait(lock, [&] { return written_ >= target; });
  --flush_waiting_;
  if (!error_.empty()) {
    std::string error = std::exchange(error_, std::string());
    throw StorageError(error);
  }
}

void StepWriter::loop(Database& db) {
  const auto interval = std::chrono::milliseconds(std::max(0, options_.flush_interval_ms));
  std::unique_lock<std::mutex> lock(mutex_);
  auto pending = [&] { return steps_.size() + evals_.size(); };
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || pending() > 0; });
    if (pending() == 0) break;  // stopping, and everything is written
    // A batch has begun: gather rows until it is full, its time is up, or someone is waiting.
    const auto deadline = std::chrono::steady_clock::now() + interval;
    cv_.wait_until(lock, deadline, [&] {
      return stopping_ || flush_waiting_ > 0 || pending() >= options_.batch_rows;
    });
    std::vector<StepRow> steps;
    std::vector<EvalRow> evals;
    steps.swap(steps_);
    evals.swap(evals_);
    lock.unlock();

    std::string error;
    auto attempt = [&](auto&& write) {
      try {
        write();
      } catch (const std::exception& e) {
        if (error.empty()) error = e.what();
      } catch (...) {
        if (error.empty()) error = "unknown error";
      }
    };
    attempt([&] { db.append_steps(steps); });
    attempt([&] { db.append_evals(evals); });

    lock.lock();
    written_ += steps.size() + evals.size();
    if (!error.empty() && error_.empty()) error_ = "step writer for '" + path_ + "': " + error;
    flushed_cv_.notify_all();
  }
}

}  // namespace parity::storage

#include <parity/storage/step_writer.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

namespace parity::storage {
namespace {

using Clock = std::chrono::steady_clock;

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// SQLite's own wait for a lock, per attempt, on the writer's connection: short, so the writer's
// bound (busy_wait_s) is kept to within this much.
constexpr int kWriterBusyTimeoutMs = 250;

// Runs one write, retrying while the database is busy until `since + wait_s` has passed.
// Returns "" when it was written, else why not (a hard error, or a lock held too long).
template <typename F>
std::string with_busy_wait(F&& write, Clock::time_point since, double wait_s) {
  while (true) {
    try {
      write();
      return "";
    } catch (const StorageError& e) {
      if (!e.is_busy()) return e.what();
      if (Clock::now() - since >= seconds(wait_s)) {
        char waited[32];
        std::snprintf(waited, sizeof waited, "%g", wait_s);
        // The statement that waited is no news to a user: what held the lock this long is.
        return std::string("the database stayed locked for more than ") + waited +
               " s (another program holds a write lock on it)";
      }
      // busy_timeout has already waited a little inside SQLite; a short pause guards against a
      // refusal that returns at once (SQLITE_LOCKED, a busy snapshot).
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "unknown error";
    }
  }
}

}  // namespace

StepWriter::StepWriter(const std::string& db_path, StepWriterOptions options)
    : path_(db_path), options_(options) {
  options_.batch_rows = std::max<size_t>(options_.batch_rows, 1);
  options_.busy_wait_s = std::max(0.0, options_.busy_wait_s);
  auto db = std::make_unique<Database>(path_);
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) {
    device_ = st.st_dev;
    inode_ = st.st_ino;
  }
  sqlite3_busy_timeout(db->handle(), kWriterBusyTimeoutMs);
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

void StepWriter::queued(size_t before) {
  ++pushed_;
  // Wake the writer for the first item of a batch (to start its clock) and when a batch is full.
  if (before == 0 || before + 1 >= options_.batch_rows) cv_.notify_one();
}

void StepWriter::push(StepRow row) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failed_.empty()) return;
  const size_t before = queue_.size();
  queue_.steps.push_back(std::move(row));
  queued(before);
}

void StepWriter::push(EvalRow row) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failed_.empty()) return;
  const size_t before = queue_.size();
  queue_.evals.push_back(std::move(row));
  queued(before);
}

void StepWriter::push(RunUpdate update) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t before = queue_.size();
  queue_.updates.push_back(std::move(update));
  queued(before);
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

std::optional<std::string> StepWriter::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed_.empty()) return std::nullopt;
  return failed_;
}

void StepWriter::keep_in_file(Database& db) {
  // What the connection holds in its WAL goes into the file it has open (the renamed one, or an
  // unlinked inode), not into a -wal under a name that no longer belongs to it.
  sqlite3_exec(db.handle(), "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
}

std::string StepWriter::file_lost(Database& db) {
  if (inode_ == 0) return "";
  struct stat st {};
  std::string what;
  if (::stat(path_.c_str(), &st) != 0) {
    what = "was deleted or renamed during the run";
  } else if (st.st_dev != device_ || st.st_ino != inode_) {
    what = "was replaced by another file during the run";
  } else {
    return "";
  }
  file_gone_ = true;
  keep_in_file(db);
  return "the database file '" + path_ + "' " + what;
}

std::string StepWriter::write(Database& db, Batch& batch) {
  // The bound counts from the batch's first attempt, however its time splits between parts.
  const auto since = Clock::now();
  bool rows_failed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_failed = !failed_.empty();
  }
  std::string error;
  // Rows in push order, each kind in one transaction; after a hard error no later row is written,
  // so the stored rows stay a prefix.
  if (!rows_failed) error = file_lost(db);
  if (!rows_failed && error.empty()) {
    error = with_busy_wait([&] { db.append_steps(batch.steps); }, since, options_.busy_wait_s);
    if (error.empty())
      error = with_busy_wait([&] { db.append_evals(batch.evals); }, since, options_.busy_wait_s);
  }
  // Run updates are attempted even then: marking the run failed is what is left to do.
  for (auto& update : batch.updates) {
    std::string e = with_busy_wait([&] { update(db); }, since, options_.busy_wait_s);
    if (error.empty()) error = e;
  }
  if (file_gone_ && !batch.updates.empty()) keep_in_file(db);  // the run's failure, above all
  return error;
}

std::string StepWriter::beat(Database& db) {
  // A heartbeat is no row: a busy database just skips one (the next comes soon); a hard error is
  // still one, found even while rank 0 sends no steps.
  if (std::string lost = file_lost(db); !lost.empty()) return lost;
  try {
    db.heartbeat(options_.heartbeat_run_id);
  } catch (const StorageError& e) {
    if (!e.is_busy()) return e.what();
  }
  return "";
}

void StepWriter::loop(Database& db) {
  const auto interval = std::chrono::milliseconds(std::max(0, options_.flush_interval_ms));
  const bool beating = options_.heartbeat_run_id > 0;
  const auto beat_every = seconds(std::max(0.05, options_.heartbeat_interval_s));
  auto next_beat = Clock::now() + beat_every;
  std::unique_lock<std::mutex> lock(mutex_);
  auto fail = [&](const std::string& error) {
    if (error.empty()) return;
    if (error_.empty()) error_ = "step writer for '" + path_ + "': " + error;
    if (failed_.empty()) failed_ = error;
  };
  while (true) {
    auto wake = [&] { return stopping_ || queue_.size() > 0; };
    if (beating) {
      cv_.wait_until(lock, next_beat, wake);
    } else {
      cv_.wait(lock, wake);
    }
    if (beating && Clock::now() >= next_beat) {
      next_beat = Clock::now() + beat_every;
      if (failed_.empty()) {
        lock.unlock();
        const std::string error = beat(db);
        lock.lock();
        fail(error);
      }
    }
    if (queue_.size() == 0) {
      if (stopping_) break;  // everything is written
      continue;
    }
    // A batch has begun: gather rows until it is full, its time is up, or someone is waiting.
    const auto deadline = std::chrono::steady_clock::now() + interval;
    cv_.wait_until(lock, deadline, [&] {
      return stopping_ || flush_waiting_ > 0 || queue_.size() >= options_.batch_rows;
    });
    Batch batch = std::exchange(queue_, Batch());
    lock.unlock();
    const std::string error = write(db, batch);
    lock.lock();
    written_ += batch.size();
    fail(error);
    if (!failed_.empty()) {
      // Rows queued meanwhile would follow a gap: give them up (updates still run).
      written_ += queue_.steps.size() + queue_.evals.size();
      queue_.steps.clear();
      queue_.evals.clear();
    }
    flushed_cv_.notify_all();
  }
}

}  // namespace parity::storage

#include <parity/ui/runs_poller.h>

#include <chrono>
#include <cmath>
#include <set>
#include <utility>

namespace parity::ui {

namespace {

bool sameValue(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || *a == *b || (std::isnan(*a) && std::isnan(*b));
}

bool sameRun(const storage::RunRow& a, const storage::RunRow& b) {
  return a.label == b.label && a.status == b.status && a.error == b.error && a.notes == b.notes &&
         a.created_at == b.created_at && a.started_at == b.started_at &&
         a.finished_at == b.finished_at && a.total_steps == b.total_steps &&
         a.steps_done == b.steps_done && a.train_size == b.train_size &&
         a.samples_per_s == b.samples_per_s && sameValue(a.final_loss, b.final_loss) &&
         sameValue(a.final_eval_loss, b.final_eval_loss) &&
         sameValue(a.final_accuracy, b.final_accuracy) && a.supervisor.pid == b.supervisor.pid &&
         a.supervisor.start_time == b.supervisor.start_time &&
         a.supervisor.host == b.supervisor.host && a.supervisor.boot_id == b.supervisor.boot_id &&
         a.heartbeat_at == b.heartbeat_at && a.shown_failed == b.shown_failed &&
         a.config_json == b.config_json;
}

double unixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

RunsPoller::RunsPoller(storage::Database& db, std::function<double()> now)
    : db_(db), now_(now ? std::move(now) : std::function<double()>(unixNow)) {}

RunsUpdate RunsPoller::poll() {
  ++stats_.polls;
  const bool gone = primed_ && supervisorGone();
  if (primed_ && !gone && db_.change_stamp() == stamp_) {
    ++stats_.skipped;
    return {};
  }
  try {
    if (!primed_ || gone) reconcile();
    // Taken before reading: whatever commits after it changes the stamp, so the next poll
    // looks again (the reads below need no snapshot of their own to converge).
    stamp_ = db_.change_stamp();
    const storage::EndedRunsDigest digest = db_.ended_runs_digest();
    if (!primed_ || digest != digest_) {
      digest_ = digest;
      return readAll();
    }
    return readUnfinished();
  } catch (...) {
    primed_ = false;  // the next poll reads everything
    throw;
  }
}

std::vector<storage::RunRow> RunsPoller::runs() const {
  std::vector<storage::RunRow> rows;
  rows.reserve(runs_.size());
  for (const auto& [id, row] : runs_) rows.push_back(row);
  return rows;
}

bool RunsPoller::supervisorGone() const {
  const double now = now_();
  for (const auto& [id, r] : runs_) {
    if (storage::is_active(r.status) && r.supervisor.pid > 0 &&
        storage::supervisor_gone(r.supervisor, r.heartbeat_at, now)) {
      return true;
    }
  }
  return false;
}

void RunsPoller::reconcile() {
  if (db_.read_only()) return;  // the reads show such runs failed instead
  try {
    db_.reconcile_orphaned_runs();
  } catch (const storage::StorageError& e) {
    if (!e.is_busy()) throw;  // busy: a later poll reconciles; the rows are read either way
  }
}

RunsUpdate RunsPoller::readAll() {
  ++stats_.full_reads;
  std::vector<int64_t> known;
  for (const auto& [id, r] : runs_) known.push_back(id);
  RunsUpdate update;
  apply(db_.list_runs(), known, update);
  primed_ = true;
  return update;
}

RunsUpdate RunsPoller::readUnfinished() {
  std::vector<int64_t> ids;
  for (const auto& [id, r] : runs_) {
    if (unfinished(r)) ids.push_back(id);
  }
  const int64_t newest = runs_.empty() ? 0 : runs_.rbegin()->first;
  RunsUpdate update;
  apply(db_.list_runs(ids, newest), ids, update);
  return update;
}

void RunsPoller::apply(std::vector<storage::RunRow> rows, const std::vector<int64_t>& expected,
                       RunsUpdate& update) {
  stats_.rows_read += static_cast<int64_t>(rows.size());
  std::set<int64_t> seen;
  for (storage::RunRow& row : rows) {
    seen.insert(row.id);
    auto it = runs_.find(row.id);
    if (it != runs_.end() && sameRun(it->second, row)) continue;
    update.changed.push_back(row);
    runs_[row.id] = std::move(row);
  }
  for (int64_t id : expected) {
    if (seen.count(id)) continue;
    runs_.erase(id);
    update.removed.push_back(id);
  }
}

}  // namespace parity::ui

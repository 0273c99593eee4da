#include <parity/storage/runs_poller.h>

#include <chrono>
#include <cmath>
#include <set>
#include <utility>

namespace parity::storage {

namespace {

bool sameValue(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || *a == *b || (std::isnan(*a) && std::isnan(*b));
}

bool sameRun(const RunRow& a, const RunRow& b) {
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
         a.config_json == b.config_json && a.job_id == b.job_id && a.job_state == b.job_state;
}

double unixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

RunsPoller::RunsPoller(Database& db, std::function<double()> now)
    : db_(db), now_(now ? std::move(now) : std::function<double()>(unixNow)) {}

RunsUpdate RunsPoller::poll() {
  ++stats_.polls;
  const double now = now_();
  const bool gone = primed_ && supervisorGone();
  const bool checkDue = !primed_ || !anyUnfinished() || now - checkedAt_ >= kEndedCheckS;
  if (primed_ && !gone && db_.change_stamp() == stamp_ && !(checkOwed_ && checkDue)) {
    ++stats_.skipped;
    return {};
  }
  try {
    if (!primed_ || gone) reconcile();
    // Taken before reading: whatever commits after it changes the stamp, so the next poll
    // looks again (the reads below need no snapshot of their own to converge).
    const ChangeStamp stamp = db_.change_stamp();
    checkOwed_ = checkOwed_ || stamp != stamp_;
    stamp_ = stamp;
    std::vector<int64_t> suspects;
    if (checkDue) {
      suspects = checkEnded();
      checkedAt_ = now;
      checkOwed_ = false;
    }
    if (!primed_) return readAll();
    return readChanged(std::move(suspects));
  } catch (...) {
    primed_ = false;  // the next poll reads everything
    throw;
  }
}

std::vector<RunRow> RunsPoller::runs() const {
  std::vector<RunRow> rows;
  rows.reserve(runs_.size());
  for (const auto& [id, row] : runs_) rows.push_back(row);
  return rows;
}

bool RunsPoller::supervisorGone() const {
  const double now = now_();
  for (const auto& [id, r] : runs_) {
    if (is_active(r.status) && r.supervisor.pid > 0 &&
        supervisor_gone(r.supervisor, r.heartbeat_at, now)) {
      return true;
    }
  }
  return false;
}

bool RunsPoller::anyUnfinished() const {
  for (const auto& [id, r] : runs_) {
    if (unfinished(r)) return true;
  }
  return false;
}

void RunsPoller::reconcile() {
  if (db_.read_only()) return;  // the reads show such runs failed instead
  try {
    db_.reconcile_orphaned_runs();
  } catch (const StorageError& e) {
    if (!e.is_busy()) throw;  // busy: a later poll reconciles; the rows are read either way
  }
}

std::vector<int64_t> RunsPoller::checkEnded() {
  ++stats_.ended_checks;
  std::map<int64_t, uint64_t> now;
  std::vector<int64_t> changed;
  for (const RunHash& h : db_.ended_run_hashes()) {
    now.emplace(h.id, h.hash);
    auto it = ended_.find(h.id);
    if (it == ended_.end() || it->second != h.hash) changed.push_back(h.id);
  }
  for (const auto& [id, hash] : ended_) {
    if (!now.count(id)) changed.push_back(id);  // deleted (or, oddly, active again)
  }
  ended_ = std::move(now);
  return changed;
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

RunsUpdate RunsPoller::readChanged(std::vector<int64_t> ids) {
  for (const auto& [id, r] : runs_) {
    if (unfinished(r)) ids.push_back(id);
  }
  const int64_t newest = runs_.empty() ? 0 : runs_.rbegin()->first;
  // Ids the check named that this copy never held and that are not newer: nothing to expect.
  std::vector<int64_t> expected;
  for (int64_t id : std::set<int64_t>(ids.begin(), ids.end())) {
    if (runs_.count(id)) expected.push_back(id);
  }
  RunsUpdate update;
  apply(db_.list_runs(ids, newest), expected, update);
  return update;
}

void RunsPoller::apply(std::vector<RunRow> rows, const std::vector<int64_t>& expected,
                       RunsUpdate& update) {
  stats_.rows_read += static_cast<int64_t>(rows.size());
  std::set<int64_t> seen;
  for (RunRow& row : rows) {
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

}  // namespace parity::storage

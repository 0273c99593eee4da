#pragma once
/// Step rows and finished runs of a smooth synthetic loss, for the tests of everything that reads
/// stored curves (storage's poller, the plot store, the window). Header-only: the including test
/// links parity_storage.
#include <parity/storage/database.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace parity::test {

/// Global (rank -1) rows of a smooth decreasing loss; nanAt >= 1 puts a NaN at that step.
inline std::vector<storage::StepRow> syntheticSteps(int64_t runId, int64_t steps, int64_t batch,
                                                    int rank = -1, int64_t nanAt = 0,
                                                    double scale = 1.0) {
  std::vector<storage::StepRow> rows;
  rows.reserve(steps);
  for (int64_t s = 1; s <= steps; ++s) {
    storage::StepRow r;
    r.run_id = runId;
    r.step = s;
    r.rank = rank;
    r.samples = s * batch;
    r.epoch = static_cast<double>(s) / steps;
    r.loss = s == nanAt ? std::nan("")
                        : scale * (0.2 + 2.0 / std::sqrt(1.0 + s) + 0.05 * std::sin(0.7 * s));
    r.lr = 0.05;
    r.time_s = 0.01 * s;
    rows.push_back(r);
  }
  return rows;
}

/// A run row with `steps` global steps (loss times `scale`), finished.
inline int64_t addFinishedRun(storage::Database& db, const std::string& label, int64_t steps,
                              int64_t batch = 64, const std::string& config = "{}",
                              double scale = 1.0) {
  const int64_t id = db.create_run(label, config);
  db.set_started(id, steps);
  db.append_steps(syntheticSteps(id, steps, batch, -1, 0, scale));
  db.finish_run(id, storage::RunStatus::kFinished, "", 1000.0);
  return id;
}

}  // namespace parity::test

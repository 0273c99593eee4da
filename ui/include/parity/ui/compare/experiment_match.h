#pragma once
/// Whether two runs trained the same experiment: the same data (dataset, data file, test file)
/// and the same model (kind, hidden layers, TorchScript file). Compare says so before any other
/// cause, since no batch or lr alignment makes curves of different experiments meet.
/// Thread affinity: any (pure functions).

#include <parity/storage/database.h>

#include <QString>

namespace parity::ui {

/// How `run`'s experiment differs from `reference`'s, in words ("data: b.csv vs a.csv; model:
/// mlp 64 vs mlp 256,128"); empty when they are the same, or when either run's data is not known
/// from its config (an imported run, or one of the user's own command: their configs are
/// Parity's defaults filled around their facts).
QString experimentDifference(const storage::RunRow& run, const storage::RunRow& reference);

}  // namespace parity::ui

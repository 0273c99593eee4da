#pragma once
/// A run's facts as `show`, `compare` and `import --dry-run` print them: one line per fact,
/// "per-device batch  16  known (TensorBoard hparams: per_device_train_batch_size)".

#include <parity/config/run_facts.h>
#include <parity/storage/database.h>

#include <ostream>
#include <string>

namespace parity::cli {

void print_facts(std::ostream& out, const config::RunFacts& facts, const std::string& indent);
/// The origin line and facts of a stored run; nothing for an engine run (its config says all).
void print_stored_facts(std::ostream& out, const storage::RunRow& row);

}  // namespace parity::cli

#pragma once
// Private to parity_storage: what database.cpp (the queries) and database_open.cpp (opening,
// read-only or read-write, and migrating) share.

#include <sqlite3.h>

#include <string>

namespace parity::storage::detail {

/// busy_timeout of every connection but the step writer's (which waits in its own loop).
inline constexpr int kBusyTimeoutMs = 5000;

/// ":memory:" and "file:" URIs, which name no file to create folders for or check.
bool is_special_path(const std::string& path);

/// The finals as finish_run, reconciliation and import_run set them: from the last stored rows
/// of run ?1.
inline constexpr const char* kSetFinals = R"sql(
      final_loss = (SELECT loss FROM steps WHERE run_id = ?1 AND rank = -1
                    ORDER BY step DESC LIMIT 1),
      final_eval_loss = (SELECT loss FROM evals WHERE run_id = ?1
                         ORDER BY step DESC, epoch DESC LIMIT 1),
      final_accuracy = (SELECT accuracy FROM evals WHERE run_id = ?1
                        ORDER BY step DESC, epoch DESC LIMIT 1))sql";

/// PRAGMA user_version.
int read_user_version(sqlite3* db);

}  // namespace parity::storage::detail

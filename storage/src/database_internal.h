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

/// PRAGMA user_version.
int read_user_version(sqlite3* db);

}  // namespace parity::storage::detail

// Opening a Database: read-write (folders created, WAL, migrations) or read-only (nothing
// created or written), and moving one.
#include <parity/storage/database.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include "database_internal.h"
#include "schema.h"
#include "statement.h"
#include "step_feed.h"

namespace parity::storage {

using detail::exec;
using detail::is_special_path;
using detail::kBusyTimeoutMs;
using detail::read_user_version;
using detail::register_step_feed;
using detail::Statement;
using detail::Transaction;

namespace detail {

bool is_special_path(const std::string& path) {
  return path == ":memory:" || path.rfind("file:", 0) == 0;
}

int read_user_version(sqlite3* db) {
  Statement st(db, "PRAGMA user_version");
  st.step();
  return static_cast<int>(st.column_int64(0));
}

}  // namespace detail

bool database_writable(const std::string& path) {
  if (is_special_path(path)) return true;
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return ::access(path.c_str(), W_OK) == 0 &&
         ::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0;
}

OpenMode viewing_mode(const std::string& path) {
  return std::filesystem::exists(path) && !database_writable(path) ? OpenMode::kReadOnly
                                                                   : OpenMode::kReadWrite;
}

Database::Database(const std::string& path, OpenMode mode)
    : path_(path), read_only_(mode == OpenMode::kReadOnly) {
  if (path.empty()) throw StorageError("cannot open database: the path is empty");
  try {
    if (read_only_)
      open_read_only();
    else
      open_read_write();
    schema_ = read_user_version(db_);
  } catch (const StorageError& e) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    // Name the path once, at the front, rather than again in the suffix throw_sqlite adds.
    std::string message = e.what();
    const std::string suffix = " (database '" + path + "')";
    if (message.size() >= suffix.size() &&
        message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0) {
      message.resize(message.size() - suffix.size());
    }
    throw StorageError("cannot open database '" + path + "': " + message, e.sqlite_code());
  }
}

void Database::open_read_write() {
  const std::string& path = path_;
  if (!is_special_path(path)) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) {
      throw StorageError("cannot create folder '" + parent.string() + "': " + ec.message());
    }
  }
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const int code = db_ ? sqlite3_extended_errcode(db_) : SQLITE_NOMEM;
    throw StorageError(db_ ? sqlite3_errmsg(db_) : "out of memory", code);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  exec(db_, "PRAGMA foreign_keys = ON");
  // Before anything is changed (the switch to WAL rewrites the header): another program's file is
  // refused untouched. The first read is also where "file is not a database" shows up.
  refuse_foreign_file();
  std::string mode;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    try {
      Statement wal(db_, "PRAGMA journal_mode = WAL");
      if (wal.step()) mode = wal.column_text(0);
      break;
    } catch (const StorageError& e) {
      // Switching needs the file to itself, and a connection that has read it is refused at
      // once (SQLite does not wait there, to avoid a deadlock): another process creating or
      // migrating the same new file is waited out here, as the busy timeout would.
      if (!e.is_busy() || std::chrono::steady_clock::now() > deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }  // each try's statement is finalized: one left mid-step would keep the migration from
     // committing
  if (mode != "wal" && mode != "memory") {
    throw StorageError("cannot switch to WAL journal mode (got '" + mode + "')");
  }
  // In WAL mode NORMAL is durable across application crashes and much cheaper per commit.
  exec(db_, "PRAGMA synchronous = NORMAL");
  migrate();
  register_step_feed(db_);
}

namespace {

// A file: URI for path with SQLite's special characters escaped, and the given query.
std::string file_uri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

}  // namespace

void Database::open_read_only() {
  if (!is_special_path(path_) && !std::filesystem::exists(path_))
    throw StorageError("there is no such file");
  // A WAL database read-only needs its -shm file; where that cannot be created (a read-only
  // folder), immutable=1 reads the file as it is, without locks: what a viewer can do.
  for (const char* query : {"mode=ro", "immutable=1"}) {
    const std::string uri = is_special_path(path_) ? path_ : file_uri(path_, query);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
        SQLITE_OK) {
      const int code = db_ ? sqlite3_extended_errcode(db_) : SQLITE_NOMEM;
      throw StorageError(db_ ? sqlite3_errmsg(db_) : "out of memory", code);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    try {
      exec(db_, "SELECT count(*) FROM sqlite_master");
      // immutable=1 reads the main file alone: commits still in a -wal beside it are not seen.
      std::error_code ec;
      may_miss_recent_writes_ = std::string(query) == "immutable=1" && !is_special_path(path_) &&
                                std::filesystem::file_size(path_ + "-wal", ec) > 0 && !ec;
      break;
    } catch (const StorageError& e) {
      // Without a -shm it may create, SQLite says CANTOPEN, or READONLY for a WAL file it may
      // not recover (another user's file, a 0444 file in a folder the user cannot write).
      const int code = e.sqlite_code() & 0xff;
      if (std::string(query) == "immutable=1" ||
          (code != SQLITE_CANTOPEN && code != SQLITE_READONLY))
        throw;
    }
  }
  const int found = read_user_version(db_);
  if (found > kSchemaVersion) {
    throw StorageError("the database has schema version " + std::to_string(found) +
                       ", newer than this build of Parity understands (" +
                       std::to_string(kSchemaVersion) + ")");
  }
  if (found < 1) throw StorageError("it is not a Parity database (no Parity schema version)");
}

Database::~Database() { sqlite3_close_v2(db_); }

Database::Database(Database&& other) noexcept
    : path_(std::move(other.path_)),
      db_(std::exchange(other.db_, nullptr)),
      read_only_(other.read_only_),
      may_miss_recent_writes_(other.may_miss_recent_writes_),
      schema_(other.schema_) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    path_ = std::move(other.path_);
    db_ = std::exchange(other.db_, nullptr);
    read_only_ = other.read_only_;
    may_miss_recent_writes_ = other.may_miss_recent_writes_;
    schema_ = other.schema_;
  }
  return *this;
}

void Database::refuse_foreign_file() {
  // One statement, one snapshot: another process may commit Parity's first migration (its tables
  // and its version together) between two separate reads.
  Statement st(db_,
               "SELECT (SELECT user_version FROM pragma_user_version), "
               "(SELECT group_concat(name, ', ') FROM sqlite_master WHERE type = 'table')");
  if (!st.step() || st.column_int64(0) != 0 || st.is_null(1)) return;
  // Another program's SQLite file: say so in one line instead of failing on its tables.
  throw StorageError("it is not a Parity database: it holds tables of another program (" +
                     st.column_text(1).substr(0, 200) +
                     ") and no Parity schema version; it was not changed");
}

void Database::migrate() {
  const int found = read_user_version(db_);
  if (found > kSchemaVersion) {
    throw StorageError("the database has schema version " + std::to_string(found) +
                       ", newer than this build of Parity understands (" +
                       std::to_string(kSchemaVersion) + ")");
  }
  for (const auto& migration : detail::kMigrations) {
    if (migration.version <= found) continue;
    Transaction tx(db_);
    // Another process may have migrated between our first read and taking the write lock.
    if (read_user_version(db_) >= migration.version) continue;
    exec(db_, migration.sql);
    exec(db_, "PRAGMA user_version = " + std::to_string(migration.version));
    tx.commit();
  }
}

int Database::schema_version() const { return read_user_version(db_); }

}  // namespace parity::storage

#pragma once
// The benchmarks' big database: `runs` finished runs of `steps` global steps each (1,000 x 10,000
// = 10 million step rows by default), written in one transaction straight through SQLite and kept
// in a cache file, so only the first run of a benchmark pays for it (about a minute, ~800 MB).

#include <parity/config/run_config.h>
#include <parity/storage/database.h>
#include <sqlite3.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace parity::bench {

inline void execOrThrow(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error(std::string(sql) + ": " + message);
  }
}

/// The file path for runs x steps under `cacheDir`, creating it when missing.
inline QString bigDatabase(const QString& cacheDir, int runs, int steps) {
  QDir().mkpath(cacheDir);
  const QString path = QDir(cacheDir).filePath(QString("runs-%1x%2.db").arg(runs).arg(steps));
  if (QFileInfo::exists(path)) return path;
  const QString partial = path + ".partial";
  QFile::remove(partial);
  std::fprintf(stderr, "writing %s (%d runs x %d steps, once)...\n", qPrintable(path), runs, steps);
  QElapsedTimer clock;
  clock.start();
  { storage::Database schema(partial.toStdString()); }  // the current schema, migrated
  sqlite3* db = nullptr;
  if (sqlite3_open(partial.toUtf8().constData(), &db) != SQLITE_OK)
    throw std::runtime_error("cannot open " + partial.toStdString());
  // One writer, a new file: no journal needed while it is written.
  execOrThrow(db, "PRAGMA journal_mode = OFF");
  execOrThrow(db, "PRAGMA synchronous = OFF");
  execOrThrow(db, "BEGIN");
  sqlite3_stmt* run = nullptr;
  sqlite3_stmt* step = nullptr;
  sqlite3_prepare_v2(db,
                     "INSERT INTO runs (id, label, status, created_at, started_at, finished_at, "
                     "config_json, total_steps, steps_done, samples_per_s, final_loss) "
                     "VALUES (?1, ?2, 'finished', ?3, ?3, ?4, ?5, ?6, ?6, 5000, ?7)",
                     -1, &run, nullptr);
  sqlite3_prepare_v2(db,
                     "INSERT INTO steps (run_id, step, rank, epoch, samples, loss, lr, time_s) "
                     "VALUES (?1, ?2, -1, ?3, ?4, ?5, 0.01, ?6)",
                     -1, &step, nullptr);
  const double t0 = 1.7e9;
  for (int id = 1; id <= runs; ++id) {
    config::RunConfig config;
    config.label = "run " + std::to_string(id);
    config.num_processes = 1 << (id % 3);
    config.per_device_batch_size = 256 >> (id % 3);
    const int64_t batch = config.num_processes * config.per_device_batch_size;
    double loss = 0;
    for (int s = 1; s <= steps; ++s) {
      loss = 0.1 + 2.3 * std::exp(-s / (800.0 + id)) + 0.02 * std::sin(0.37 * s + id);
      sqlite3_bind_int64(step, 1, id);
      sqlite3_bind_int64(step, 2, s);
      sqlite3_bind_double(step, 3, static_cast<double>(s) / steps * 10);
      sqlite3_bind_int64(step, 4, s * batch);
      sqlite3_bind_double(step, 5, loss);
      sqlite3_bind_double(step, 6, s * 0.01);
      if (sqlite3_step(step) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db));
      sqlite3_reset(step);
    }
    const std::string label = config.label, json = config::to_json(config, 0);
    sqlite3_bind_int64(run, 1, id);
    sqlite3_bind_text(run, 2, label.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(run, 3, t0 + id * 600.0);
    sqlite3_bind_double(run, 4, t0 + id * 600.0 + steps * 0.01);
    sqlite3_bind_text(run, 5, json.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(run, 6, steps);
    sqlite3_bind_double(run, 7, loss);
    if (sqlite3_step(run) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db));
    sqlite3_reset(run);
  }
  sqlite3_finalize(run);
  sqlite3_finalize(step);
  execOrThrow(db, "COMMIT");
  execOrThrow(db, "PRAGMA journal_mode = WAL");
  sqlite3_close(db);
  QFile::rename(partial, path);
  std::fprintf(stderr, "written in %.1f s\n", clock.nsecsElapsed() / 1e9);
  return path;
}

}  // namespace parity::bench

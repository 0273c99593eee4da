#include "step_feed.h"

#include <parity/storage/storage_error.h>

#include <cmath>
#include <string>

namespace parity::storage::detail {

namespace {

enum Column { kStep, kRank, kEpoch, kSamples, kLoss, kLr, kTimeS, kFeed };

struct Cursor {
  sqlite3_vtab_cursor base{};  // first: SQLite sees only this
  StepFeed* feed = nullptr;
  size_t first_index = 0;
  StepRow row;
  bool eof = true;
  sqlite3_int64 rowid = 0;
};

int set_error(sqlite3_vtab* vtab, const std::string& message) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
  return SQLITE_ERROR;
}

int connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(step, rank, epoch, samples, loss, lr, time_s, feed HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* vtab = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (vtab == nullptr) return SQLITE_NOMEM;
  *vtab = sqlite3_vtab{};
  *out = vtab;
  return SQLITE_OK;
}

int disconnect(sqlite3_vtab* vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

// The feed pointer is required: without it there is nothing to read.
int best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn == kFeed && c.op == SQLITE_INDEX_CONSTRAINT_EQ && c.usable) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 1;
      return SQLITE_OK;
    }
  }
  return SQLITE_CONSTRAINT;
}

int open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) Cursor;
  if (cursor == nullptr) return SQLITE_NOMEM;
  *out = &cursor->base;
  return SQLITE_OK;
}

int close(sqlite3_vtab_cursor* base) {
  delete reinterpret_cast<Cursor*>(base);
  return SQLITE_OK;
}

// The next row past feed->after_step, from the vector and then the function.
int advance(Cursor& c) {
  StepFeed& feed = *c.feed;
  for (;;) {
    if (feed.first != nullptr && c.first_index < feed.first->size()) {
      c.row = (*feed.first)[c.first_index++];
    } else {
      bool more = false;
      try {
        more = feed.next != nullptr && (*feed.next)(c.row);
      } catch (...) {
        feed.error = std::current_exception();
        c.eof = true;
        return set_error(c.base.pVtab, "the step rows' source failed");
      }
      if (!more) {
        c.eof = true;
        return SQLITE_OK;
      }
    }
    if (c.row.step > feed.after_step) break;
  }
  if (c.row.rank == -1) ++feed.global_rows;
  ++c.rowid;
  c.eof = false;
  return SQLITE_OK;
}

int filter(sqlite3_vtab_cursor* base, int, const char*, int argc, sqlite3_value** argv) {
  auto& c = *reinterpret_cast<Cursor*>(base);
  c.feed = argc == 1 ? static_cast<StepFeed*>(sqlite3_value_pointer(argv[0], kStepFeedPointer))
                     : nullptr;
  if (c.feed == nullptr) return set_error(base->pVtab, "parity_step_feed: no feed bound");
  c.first_index = 0;
  c.rowid = 0;
  return advance(c);
}

int next(sqlite3_vtab_cursor* base) { return advance(*reinterpret_cast<Cursor*>(base)); }

int eof(sqlite3_vtab_cursor* base) { return reinterpret_cast<Cursor*>(base)->eof ? 1 : 0; }

void result_real(sqlite3_context* ctx, double v) {
  if (std::isnan(v)) {
    sqlite3_result_null(ctx);  // as Statement::bind does: NaN is stored as NULL
  } else {
    sqlite3_result_double(ctx, v);
  }
}

int column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  const StepRow& r = reinterpret_cast<Cursor*>(base)->row;
  switch (col) {
    case kStep:
      sqlite3_result_int64(ctx, r.step);
      break;
    case kRank:
      sqlite3_result_int(ctx, r.rank);
      break;
    case kEpoch:
      result_real(ctx, r.epoch);
      break;
    case kSamples:
      sqlite3_result_int64(ctx, r.samples);
      break;
    case kLoss:
      result_real(ctx, r.loss);
      break;
    case kLr:
      result_real(ctx, r.lr);
      break;
    case kTimeS:
      result_real(ctx, r.time_s);
      break;
    default:
      sqlite3_result_null(ctx);
      break;
  }
  return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
  *out = reinterpret_cast<Cursor*>(base)->rowid;
  return SQLITE_OK;
}

sqlite3_module make_module() {
  sqlite3_module m{};
  m.iVersion = 0;
  m.xCreate = nullptr;  // eponymous only: used as parity_step_feed(?), never CREATEd
  m.xConnect = connect;
  m.xBestIndex = best_index;
  m.xDisconnect = disconnect;
  m.xDestroy = disconnect;
  m.xOpen = open;
  m.xClose = close;
  m.xFilter = filter;
  m.xNext = next;
  m.xEof = eof;
  m.xColumn = column;
  m.xRowid = rowid;
  return m;
}

const sqlite3_module kModule = make_module();

}  // namespace

void register_step_feed(sqlite3* db) {
  if (sqlite3_create_module_v2(db, kStepFeedPointer, &kModule, nullptr, nullptr) != SQLITE_OK) {
    throw StorageError(std::string("cannot register the step feed: ") + sqlite3_errmsg(db));
  }
}

}  // namespace parity::storage::detail

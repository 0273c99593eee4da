#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace parity::storage::testing {

namespace {
sqlite3_stmt* prepare_one_row(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
    return nullptr;
  }
  if (sqlite3_step(st) != SQLITE_ROW) {
    ADD_FAILURE() << sql << ": no row (" << sqlite3_errmsg(db) << ")";
    sqlite3_finalize(st);
    return nullptr;
  }
  return st;
}
}  // namespace

int64_t query_int(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = prepare_one_row(db, sql);
  if (!st) return -999;
  const int64_t value = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return value;
}

std::string query_text(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = prepare_one_row(db, sql);
  if (!st) return "<error>";
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  std::string value = text ? text : "";
  sqlite3_finalize(st);
  return value;
}

void exec_sql(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << (error ? error : "?");
    sqlite3_free(error);
  }
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"') {
      ++i;
      while (true) {
        if (i >= text.size()) throw std::runtime_error("unterminated quoted cell");
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            cell += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
        if (text[i] == '"') throw std::runtime_error("quote inside an unquoted cell");
        cell += text[i++];
      }
    }
    if (i < text.size() && text[i] == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      ++i;
    } else if (text.compare(i, 2, "\r\n") == 0) {
      row.push_back(std::move(cell));
      cell.clear();
      rows.push_back(std::move(row));
      row.clear();
      i += 2;
    } else if (i < text.size()) {
      throw std::runtime_error("bad line end or character after a quoted cell at offset " +
                               std::to_string(i));
    }
  }
  if (!cell.empty() || !row.empty()) throw std::runtime_error("last row has no CRLF");
  return rows;
}

}  // namespace parity::storage::testing

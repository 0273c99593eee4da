#pragma once
/// parity-cli's verbs. Each add_* function registers one subcommand on app; when that
/// subcommand is parsed its callback runs the command and stores the exit code in *exit_code.
/// Commands throw UsageError / ConfigError for exit 2; main() prints and maps exceptions.

#include <parity/storage/database.h>

#include <CLI/CLI.hpp>
#include <string>

namespace parity::cli {

void add_run_command(CLI::App& app, int* exit_code);
void add_run_set_command(CLI::App& app, int* exit_code);
void add_demo_command(CLI::App& app, int* exit_code);
void add_list_command(CLI::App& app, int* exit_code);
void add_show_command(CLI::App& app, int* exit_code);
void add_export_command(CLI::App& app, int* exit_code);
void add_compare_command(CLI::App& app, int* exit_code);
void add_report_command(CLI::App& app, int* exit_code);
void add_explain_command(CLI::App& app, int* exit_code);
void add_fix_command(CLI::App& app, int* exit_code);
void add_plan_command(CLI::App& app, int* exit_code);
void add_rerun_command(CLI::App& app, int* exit_code);
void add_import_command(CLI::App& app, int* exit_code);
void add_set_command(CLI::App& app, int* exit_code);
void add_follow_command(CLI::App& app, int* exit_code);
void add_stop_command(CLI::App& app, int* exit_code);
void add_job_step_command(CLI::App& app, int* exit_code);

/// Checks of a numeric option whose refusal says in words what is allowed ("a number above 0"),
/// where CLI11's PositiveNumber prints its range as two 309-digit numbers.
CLI::Validator above_zero();
CLI::Validator zero_or_more();

/// Adds --db FILE (default: the user's database) to a subcommand.
CLI::Option* add_db_option(CLI::App& sub, std::string* db_path);
/// --db's value, or the default path when not given.
std::string db_or_default(const std::string& db_path);
/// Opens an existing database; throws UsageError when the file does not exist (so a typo in
/// --db does not create an empty database).
storage::Database open_existing_db(const std::string& path);
/// Opens an existing database to look at it (list, show, export, compare): read-only, saying so
/// once on stderr, when this process cannot write it; otherwise read-write, first marking the runs
/// whose launcher is gone as failed (Database::reconcile_orphaned_runs). Throws UsageError when
/// the file does not exist.
storage::Database open_for_viewing(const std::string& path);

}  // namespace parity::cli

// parity-cli: Parity's jobs without the window. Each verb lives in a commands_*.cpp file; this
// file wires them and turns exceptions into one clear stderr line and an exit code.
#include <parity/analysis/curve_analysis.h>
#include <parity/config/run_config.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/startup_trace.h>
#include <parity/report/report_error.h>
#ifdef PARITY_CLI_PDF
#include <parity/report_pdf/pdf_writer.h>
#endif
#include <parity/storage/database.h>
#include <parity/stored_runs/compare_runs.h>
#include <parity/version.h>
#include <signal.h>

#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "config_flags.h"

int main(int argc, char** argv) {
  using namespace parity;
  launch::startup_mark("main");
  // A run outlives the window or terminal that launched it: output to a closed pipe fails with
  // EPIPE and is dropped (the stream stays failed), never a fatal SIGPIPE. The ranks get the
  // default disposition back when they are spawned.
  ::signal(SIGPIPE, SIG_IGN);
  CLI::App app{
      "parity-cli: train one model under different distributed setups (as Hugging Face "
      "Accelerate does), record the runs in SQLite, and tell arithmetic from bugs."};
  app.name("parity-cli");
  app.require_subcommand(1);
  app.footer("Run `parity-cli VERB --help` for a verb's options.");
  app.set_version_flag("--version", std::string("parity-cli ") + parity::kVersion,
                       "print the version and exit");
  int exit_code = cli::kExitOk;
#ifdef PARITY_CLI_PDF
  report_pdf::register_pdf_writer();  // `report --out FILE.pdf`
#endif
  cli::add_run_command(app, &exit_code);
  cli::add_run_set_command(app, &exit_code);
  cli::add_list_command(app, &exit_code);
  cli::add_show_command(app, &exit_code);
  cli::add_export_command(app, &exit_code);
  cli::add_compare_command(app, &exit_code);
  cli::add_report_command(app, &exit_code);
  cli::add_explain_command(app, &exit_code);
  cli::add_fix_command(app, &exit_code);
  cli::add_plan_command(app, &exit_code);
  cli::add_rerun_command(app, &exit_code);
  cli::add_demo_command(app, &exit_code);
  cli::add_import_command(app, &exit_code);
  cli::add_set_command(app, &exit_code);
  cli::add_follow_command(app, &exit_code);
  cli::add_stop_command(app, &exit_code);
  cli::add_job_step_command(app, &exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; anything else is a usage error.
    const int code = app.exit(e);
    return code == 0 ? cli::kExitOk : cli::kExitUsage;
  } catch (const config::ConfigError& e) {
    std::string field = e.field().substr(e.field().rfind('.') + 1);
    std::cerr << "parity-cli: invalid config: " << e.what() << "  ["
              << cli::ConfigFlags::flag_for(field) << "]\n";
    return cli::kExitUsage;
  } catch (const cli::UsageError& e) {
    std::cerr << "parity-cli: " << e.what() << "\n";
    return cli::kExitUsage;
  } catch (const analysis::AnalysisError& e) {
    std::cerr << "parity-cli: " << e.what() << "\n";
    return cli::kExitUsage;
  } catch (const stored_runs::StoredRunError& e) {
    // A run id the user named is not there (or its config does not load): a usage error.
    std::cerr << "parity-cli: " << e.what() << "\n";
    return cli::kExitUsage;
  } catch (const report::ReportError& e) {
    // An unknown run, a reference with no steps, an output that cannot be written.
    std::cerr << "parity-cli: " << e.what() << "\n";
    return cli::kExitUsage;
  } catch (const storage::StorageError& e) {
    std::cerr << "parity-cli: database: " << e.what() << "\n";
    return cli::kExitFailed;
  } catch (const std::exception& e) {
    std::cerr << "parity-cli: " << e.what() << "\n";
    return cli::kExitFailed;
  }
  launch::startup_mark("exit");
  return exit_code;
}

#pragma once
/// "Your command": a setup run as the user's own training command (a script, `torchrun`,
/// `accelerate launch`, `srun`, `sbatch --wait`), once per setup with that setup's values.
///
/// The template is split as a POSIX shell splits words (blanks separate; '…' keeps everything
/// literally; "…" keeps everything but \" \\ \$ \` and a backslash-newline; a backslash outside
/// quotes keeps the next character), and nothing else a shell does happens: no variables, no
/// globs, no `;`, `|`, `$(…)`, redirections or comments. The words are run with execve, so
/// they reach the program exactly as written.
///
/// Placeholders `{name}` are then replaced inside each word by the setup's value; a value
/// never splits or joins words, whatever it holds. `{{` and `}}` write a literal brace. An
/// unknown placeholder, or one the setup has no value for, is refused before anything starts.

#include <parity/config/run_config.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace parity::launch {

/// The placeholders a template may use, in the order the README lists them.
const std::vector<std::string>& command_placeholders();

/// The words of `text`, split as described above. Throws LaunchError for an unterminated quote
/// or a trailing backslash (naming the column), and for an empty template.
std::vector<std::string> split_command(std::string_view text);

/// The placeholders `words` use, each once, in order of first use. Throws LaunchError for an
/// unknown one ("unknown placeholder {batch} in word 4 'x{batch}'; known: {num_processes}, …")
/// or an unclosed brace.
std::vector<std::string> used_placeholders(const std::vector<std::string>& words);

/// `words` with every placeholder replaced by values.at(name). Throws LaunchError for an unknown
/// placeholder and for one `values` lacks ("{run_dir} has no value for this setup").
std::vector<std::string> expand_command(const std::vector<std::string>& words,
                                        const std::map<std::string, std::string>& values);

/// One line for logs and previews: each word quoted as a shell would need it to read it back
/// (plain words as they are, others in '…').
std::string quote_command(const std::vector<std::string>& words);

/// What a run adds to its setup's values: where it is, and which port its launcher may take.
struct CommandContext {
  int num_machines = 1;
  int main_process_port = 0;  ///< a free port (free_port())
  std::string run_dir;        ///< the run's private folder
  int64_t run_id = 0;
};

/// Every placeholder's value for one setup: the setup's own numbers as the command should use
/// them ({learning_rate} is the lr the optimizer steps with, after the setup's lr scaling;
/// {mixed_precision} is Accelerate's spelling no/fp16/bf16), the context's, and the label.
/// Numbers are written so they read back exactly (the shortest round-trip form).
std::map<std::string, std::string> command_values(const config::RunConfig& config,
                                                  const CommandContext& context);

}  // namespace parity::launch

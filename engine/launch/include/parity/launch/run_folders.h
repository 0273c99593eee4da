#pragma once
/// The folders a run leaves on disk, kept private and cleaned up:
/// - the private run folder (<TMPDIR>/parity-run-XXXXXX: the config and the c10d FileStore), which
///   RankSupervisor removes on every exit it lives through; it holds an `owner` file naming its
///   supervisor, so folders left by a killed one are found and removed by the next start;
/// - rank logs: 0600 files in a 0700 folder, opened without following symlinks, whatever the umask.

#include <functional>
#include <string>

namespace parity::launch {

/// Where private run folders go: $TMPDIR, else /tmp.
std::string run_folder_parent();

/// The prefix of a private run folder's name under run_folder_parent().
inline constexpr const char* kRunFolderPrefix = "parity-run-";

/// Removes the private run folders under `parent` that belong to this user and whose `owner` file
/// `owner_gone` judges gone (a folder without an owner file, or with an empty one, counts once it
/// is an hour old, so one being created is spared). Symlinks and other users' folders are never
/// touched. Returns how many it removed.
int remove_stale_run_folders(const std::string& parent,
                             const std::function<bool(const std::string& owner)>& owner_gone);

/// Creates `path` and any missing parents as folders of mode 0700 (an existing folder keeps its
/// mode: it may be a shared one the user named). Throws LaunchError when it cannot, or when `path`
/// is a symlink or not a folder (never followed).
void make_private_folder(const std::string& path);

/// Opens `path` for writing as a fresh 0600 file (an existing file or symlink there is removed
/// first, never followed; O_CREAT|O_EXCL|O_NOFOLLOW, close-on-exec). Returns the descriptor;
/// throws LaunchError.
int open_private_file(const std::string& path);
/// Writes `text` to a fresh private file at `path` (as open_private_file); throws LaunchError.
void write_private_file(const std::string& path, const std::string& text);

}  // namespace parity::launch

#pragma once
// IDX files (MNIST's format): read, and kept decoded on disk so a run maps its images instead of
// inflating them.

#include <torch/torch.h>

#include <string>

namespace parity::train {

/// The cache folder, or "off" to decode every time. Unset: $XDG_CACHE_HOME/parity, else
/// ~/.cache/parity.
inline constexpr char kEnvDataCache[] = "PARITY_DATA_CACHE";

struct IdxCacheOptions {
  /// Where decoded files are kept; empty: no cache (every read decodes the source).
  std::string folder;
  /// Smaller sources are decoded every time: it takes well under a millisecond, and an entry per
  /// label file or test fixture folder would only fill the cache with small files.
  uint64_t min_source_bytes = 1 << 20;

  /// From PARITY_DATA_CACHE, XDG_CACHE_HOME and HOME, as kEnvDataCache says.
  static IdxCacheOptions from_environment();
};

/// Reads one IDX file (gzip-compressed or not) into a uint8 tensor of its dimensions; throws
/// config::DatasetError for a file that is missing, truncated or not IDX.
torch::Tensor read_idx(const std::string& path);

/// Reads one IDX file as read_idx() does, through the cache: the first read decodes the source and
/// writes its bytes to `<folder>/idx-<hash of the source's path>.u8` (to a temporary name, then
/// renamed, under a lock file so concurrent ranks and runs decode once); every read maps that file
/// read-only, so ranks on one machine share its pages. The entry is keyed by the source's real
/// path, size and modification time, and checked (header checksum, length) before use: a stale,
/// truncated or foreign file is rebuilt. Payload bytes are not checksummed on read (that would
/// touch every page at every start). Any cache failure falls back to decoding, silently; errors
/// of the source itself throw config::DatasetError as read_idx() does.
/// The tensor may be a read-only mapping: never modify it in place.
torch::Tensor read_idx_cached(const std::string& path, const IdxCacheOptions& options);

/// The cache file read_idx_cached() uses for `path` (empty when the source cannot be found or the
/// cache is off), for tests and tools.
std::string idx_cache_file(const std::string& path, const IdxCacheOptions& options);

}  // namespace parity::train

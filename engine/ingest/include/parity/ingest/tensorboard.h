#pragma once
/// TensorBoard event files (`events.out.tfevents.*`), as torch.utils.tensorboard, tensorboardX
/// and TF2's summary ops write them: TFRecord frames (little-endian uint64 length, masked CRC32C
/// of the length, the data, masked CRC32C of the data; both checked) holding `Event` protos
/// (wall_time 1, step 2, file_version 3, summary 5) whose `Summary.Value`s (tag 1,
/// simple_value 2, tensor 8, metadata 9) carry scalars, text and the hparams plugin's data.
/// Decoded by a small protobuf reader of our own (field numbers from tensorboard/compat/proto).
///
/// Streaming: bytes are fed as they come; a record still being written (a partial last record)
/// is left unconsumed for the next read, never decoded half.

#include <parity/ingest/params.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parity::ingest {

/// The complete records at the start of `bytes`.
struct RecordScan {
  std::vector<std::string_view> records;  ///< each record's data, CRCs checked
  size_t consumed = 0;                    ///< bytes up to the end of the last good record
  /// Set when a CRC did not match: "CRC mismatch of the data of the record at byte 1234"
  /// (offsets counted from base_offset). Reading stops there.
  std::optional<std::string> corruption;
};
RecordScan scan_records(std::string_view bytes, uint64_t base_offset = 0);

/// One scalar series: steps, values (the file's float32 widened exactly, or its double) and
/// wall times, in the order written.
struct TagSeries {
  std::vector<int64_t> steps;
  std::vector<double> values;
  std::vector<double> wall_times;
};

/// What the events of one run said, accumulated over its files and reads.
struct EventData {
  std::map<std::string, TagSeries> scalars;
  ParamMap hparams;                                ///< from `_hparams_/session_start_info`
  std::map<std::string, std::string> texts;        ///< text plugin: tag -> its last string
  std::map<std::string, std::string> tag_plugins;  ///< first metadata per tag (TensorBoard's rule)
  uint64_t records = 0;
  uint64_t bad_events = 0;         ///< records whose Event did not decode (skipped, counted)
  uint64_t restarts = 0;           ///< SessionLog START events after the first
  std::vector<std::string> notes;  ///< what was skipped or repaired, in words
};

/// Decodes the events of `records` into `data`. `where` names the file in notes.
void decode_events(const std::vector<std::string_view>& records, EventData& data,
                   const std::string& where = "");

/// The fuzzable entry point: every complete record of `bytes` decoded. Never throws on bad bytes;
/// damage is counted in the result's notes.
EventData parse_tensorboard_events(std::string_view bytes);

/// Reads one event file from `offset` on, streaming in chunks, into `data`. Returns the offset up
/// to which it read complete records (a partial last record stays for the next call). A CRC
/// mismatch adds a note naming the file and byte and sets *damaged. Throws IngestError when the
/// file cannot be opened or read.
uint64_t read_event_file(const std::string& path, uint64_t offset, EventData& data,
                         bool* damaged = nullptr);

/// Whether a file name is an event file's (TensorBoard's test: "tfevents" in the name).
bool is_event_file_name(std::string_view name);

}  // namespace parity::ingest

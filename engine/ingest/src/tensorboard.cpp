// TensorBoard event files: TFRecord frames, then Event / Summary.Value / TensorProto decoded with
// wire.h. Field numbers: tensorboard/compat/proto/{event,summary,tensor}.proto; the hparams
// plugin's plugin_data.proto; google/protobuf/struct.proto's Value.
#include <parity/ingest/crc32c.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/tensorboard.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "utf8.h"
#include "wire.h"

namespace parity::ingest {

using detail::Field;
using detail::WireError;
using detail::WireReader;

namespace {

constexpr size_t kHeader = 12, kFooter = 4;

uint64_t le(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

// IEEE half to double (DT_HALF's half_val bit patterns).
double half_to_double(uint32_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::nan("") : INFINITY;
  } else {
    v = std::ldexp(static_cast<double>(mant | 0x400), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

double bfloat16_to_double(uint32_t b) {
  const uint32_t bits = (b & 0xFFFF) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

constexpr int kDtFloat = 1, kDtDouble = 2, kDtString = 7, kDtBfloat16 = 14, kDtHalf = 19;

struct Tensor {
  int dtype = 0;
  std::optional<double> scalar;
  std::optional<std::string> text;
};

// The first element of a tensor, in whichever field the writer used.
Tensor decode_tensor(std::string_view bytes) {
  Tensor t;
  std::string_view content;
  WireReader r(bytes);
  while (!r.done()) {
    const Field f = r.next();
    if (f.number == 1 && f.type == detail::kVarint)
      t.dtype = static_cast<int>(f.varint);
    else if (f.number == 4 && f.type == detail::kLen)
      content = f.bytes;
    else if (f.number == 5 && !t.scalar) {  // float_val, packed or not
      if (f.type == detail::kFixed32)
        t.scalar = f.as_float();
      else if (f.type == detail::kLen && f.bytes.size() >= 4)
        t.scalar = Field{0, detail::kFixed32, le(f.bytes.data(), 4), {}}.as_float();
    } else if (f.number == 6 && !t.scalar) {  // double_val
      if (f.type == detail::kFixed64)
        t.scalar = f.as_double();
      else if (f.type == detail::kLen && f.bytes.size() >= 8)
        t.scalar = Field{0, detail::kFixed64, le(f.bytes.data(), 8), {}}.as_double();
    } else if (f.number == 13 && !t.scalar) {  // half_val: DT_HALF or DT_BFLOAT16 bit patterns
      uint64_t bits = f.varint;
      if (f.type == detail::kLen) {
        WireReader packed(f.bytes);
        if (packed.done()) continue;
        bits = packed.varint();
      }
      t.scalar = t.dtype == kDtBfloat16 ? bfloat16_to_double(static_cast<uint32_t>(bits))
                                        : half_to_double(static_cast<uint32_t>(bits));
    } else if (f.number == 8 && f.type == detail::kLen && !t.text) {
      t.text = std::string(f.bytes);
    }
  }
  if (!t.scalar && !content.empty()) {
    if (t.dtype == kDtFloat && content.size() >= 4)
      t.scalar = Field{0, detail::kFixed32, le(content.data(), 4), {}}.as_float();
    else if (t.dtype == kDtDouble && content.size() >= 8)
      t.scalar = Field{0, detail::kFixed64, le(content.data(), 8), {}}.as_double();
    else if ((t.dtype == kDtHalf || t.dtype == kDtBfloat16) && content.size() >= 2) {
      const auto bits = static_cast<uint32_t>(le(content.data(), 2));
      t.scalar = t.dtype == kDtHalf ? half_to_double(bits) : bfloat16_to_double(bits);
    }
  }
  if (t.dtype == kDtString && t.scalar) t.scalar.reset();
  return t;
}

// google.protobuf.Value: number_value 2, string_value 3, bool_value 4.
std::optional<ParamValue> decode_struct_value(std::string_view bytes) {
  WireReader r(bytes);
  std::optional<ParamValue> out;
  while (!r.done()) {
    const Field f = r.next();
    if (f.number == 2 && f.type == detail::kFixed64)
      out = param_number(f.as_double());
    else if (f.number == 3 && f.type == detail::kLen)
      out = param_text(valid_utf8(f.bytes));
    else if (f.number == 4 && f.type == detail::kVarint)
      out = param_bool(f.varint != 0);
  }
  return out;
}

// HParamsPluginData{ session_start_info 3 { map<string, Value> hparams 1 } }.
void decode_hparams(std::string_view content, ParamMap& into) {
  WireReader r(content);
  while (!r.done()) {
    const Field f = r.next();
    if (f.number != 3 || f.type != detail::kLen) continue;
    WireReader start(f.bytes);
    while (!start.done()) {
      const Field entry = start.next();
      if (entry.number != 1 || entry.type != detail::kLen) continue;
      WireReader kv(entry.bytes);
      std::string key;
      std::optional<ParamValue> value;
      while (!kv.done()) {
        const Field e = kv.next();
        if (e.number == 1 && e.type == detail::kLen)
          key = valid_utf8(e.bytes);
        else if (e.number == 2 && e.type == detail::kLen)
          value = decode_struct_value(e.bytes);
      }
      if (!key.empty() && value) into[key] = *value;
    }
  }
}

struct Metadata {
  std::string plugin;
  std::string_view content;
};

Metadata decode_metadata(std::string_view bytes) {
  Metadata m;
  WireReader r(bytes);
  while (!r.done()) {
    const Field f = r.next();
    if (f.number != 1 || f.type != detail::kLen) continue;  // plugin_data
    WireReader p(f.bytes);
    while (!p.done()) {
      const Field g = p.next();
      if (g.number == 1 && g.type == detail::kLen)
        m.plugin = std::string(g.bytes);
      else if (g.number == 2 && g.type == detail::kLen)
        m.content = g.bytes;
    }
  }
  return m;
}

class EventDecoder {
 public:
  EventDecoder(EventData& data, const std::string& where) : data_(data), where_(where) {}

  void event(std::string_view record) {
    double wall = 0;
    int64_t step = 0;
    std::string_view summary;
    WireReader r(record);
    while (!r.done()) {
      const Field f = r.next();
      if (f.number == 1 && f.type == detail::kFixed64)
        wall = f.as_double();
      else if (f.number == 2 && f.type == detail::kVarint)
        step = static_cast<int64_t>(f.varint);
      else if (f.number == 5 && f.type == detail::kLen)
        summary = f.bytes;
      else if (f.number == 7 && f.type == detail::kLen)
        session_log(f.bytes);
    }
    if (summary.empty()) return;
    WireReader s(summary);
    while (!s.done()) {
      const Field v = s.next();
      if (v.number == 1 && v.type == detail::kLen) value(v.bytes, step, wall);
    }
  }

 private:
  void session_log(std::string_view bytes) {
    WireReader r(bytes);
    while (!r.done()) {
      const Field f = r.next();
      if (f.number == 1 && f.type == detail::kVarint && f.varint == 1 && started_++ > 0)
        ++data_.restarts;
    }
  }

  void value(std::string_view bytes, int64_t step, double wall) {
    std::string_view raw_tag, tensor, metadata;
    std::optional<double> simple;
    WireReader r(bytes);
    while (!r.done()) {
      const Field f = r.next();
      if (f.number == 1 && f.type == detail::kLen)
        raw_tag = f.bytes;
      else if (f.number == 2 && f.type == detail::kFixed32)
        simple = f.as_float();
      else if (f.number == 8 && f.type == detail::kLen)
        tensor = f.bytes;
      else if (f.number == 9 && f.type == detail::kLen)
        metadata = f.bytes;
    }
    std::string tag = valid_utf8(raw_tag);
    if (tag.size() != raw_tag.size() || tag != raw_tag) {
      data_.notes.push_back("a tag that is not UTF-8 in " + where_ + " read as '" + tag + "'");
    }
    if (!metadata.empty()) {
      const Metadata m = decode_metadata(metadata);
      data_.tag_plugins.emplace(tag, m.plugin);  // the first one counts, as TensorBoard keeps it
      if (m.plugin == "hparams") decode_hparams(m.content, data_.hparams);
    }
    if (simple) {
      add(tag, step, wall, *simple);
      return;
    }
    if (tensor.empty()) return;
    const Tensor t = decode_tensor(tensor);
    const auto plugin = data_.tag_plugins.find(tag);
    const std::string kind = plugin == data_.tag_plugins.end() ? "" : plugin->second;
    if (t.text && (kind == "text" || kind.empty()))
      data_.texts[tag] = valid_utf8(*t.text);
    else if (t.scalar && (kind == "scalars" || kind.empty()))
      add(tag, step, wall, *t.scalar);
  }

  void add(const std::string& tag, int64_t step, double wall, double v) {
    TagSeries& s = data_.scalars[tag];
    s.steps.push_back(step);
    s.values.push_back(v);
    s.wall_times.push_back(wall);
  }

  EventData& data_;
  const std::string& where_;
  int started_ = 0;
};

}  // namespace

RecordScan scan_records(std::string_view bytes, uint64_t base_offset) {
  RecordScan scan;
  size_t pos = 0;
  while (bytes.size() - pos >= kHeader) {
    const char* h = bytes.data() + pos;
    const uint64_t length = le(h, 8);
    if (static_cast<uint32_t>(le(h + 8, 4)) != masked_crc32c(std::string_view(h, 8))) {
      scan.corruption =
          "CRC mismatch of the length of the record at byte " + std::to_string(base_offset + pos);
      break;
    }
    const size_t left = bytes.size() - pos;
    if (left < kHeader + kFooter || length > left - kHeader - kFooter)
      break;  // still being written
    const std::string_view data(h + kHeader, static_cast<size_t>(length));
    if (static_cast<uint32_t>(le(h + kHeader + length, 4)) != masked_crc32c(data)) {
      scan.corruption =
          "CRC mismatch of the data of the record at byte " + std::to_string(base_offset + pos);
      break;
    }
    scan.records.push_back(data);
    pos += kHeader + static_cast<size_t>(length) + kFooter;
    scan.consumed = pos;
  }
  return scan;
}

void decode_events(const std::vector<std::string_view>& records, EventData& data,
                   const std::string& where) {
  EventDecoder decoder(data, where);
  for (std::string_view record : records) {
    ++data.records;
    try {
      decoder.event(record);
    } catch (const WireError& e) {
      if (data.bad_events++ == 0) {
        data.notes.push_back("an event that does not decode in " + where + " (" + e.what() +
                             "): skipped");
      }
    }
  }
}

EventData parse_tensorboard_events(std::string_view bytes) {
  EventData data;
  const RecordScan scan = scan_records(bytes);
  decode_events(scan.records, data, "the bytes");
  if (scan.corruption) data.notes.push_back(*scan.corruption);
  return data;
}

uint64_t read_event_file(const std::string& path, uint64_t offset, EventData& data, bool* damaged) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IngestError("cannot open " + path + ": " + std::strerror(errno));
  in.seekg(static_cast<std::streamoff>(offset));
  constexpr size_t kChunk = size_t{8} << 20;
  std::string buffer;
  uint64_t done = offset;
  while (in) {
    const size_t old = buffer.size();
    buffer.resize(old + kChunk);
    in.read(buffer.data() + old, static_cast<std::streamsize>(kChunk));
    buffer.resize(old + static_cast<size_t>(in.gcount()));
    if (in.bad()) throw IngestError("cannot read " + path + ": " + std::strerror(errno));
    const RecordScan scan = scan_records(buffer, done);
    decode_events(scan.records, data, path);
    done += scan.consumed;
    if (scan.corruption) {
      data.notes.push_back(*scan.corruption + " of " + path + ": the rest of that file skipped");
      if (damaged) *damaged = true;
      return done;
    }
    buffer.erase(0, scan.consumed);
  }
  return done;
}

bool is_event_file_name(std::string_view name) {
  return name.find("tfevents") != std::string_view::npos;
}

}  // namespace parity::ingest

// The event reader on records built here field by field: every way a scalar is written, the
// hparams plugin, a partial last record, CRC damage, a bad event, a tag that is not UTF-8.
#include <gtest/gtest.h>
#include <parity/ingest/tensorboard.h>

#include <cmath>

#include "event_writer.h"

namespace parity::ingest {
namespace {

using namespace test;

TEST(TensorBoardEvents, SimpleValueIsTheFilesFloat32) {
  const float v = 2.2961153984069824f;
  const std::string bytes =
      record(file_version_event(1.0)) + record(event(2.0, 7, simple_value("train/loss", v)));
  const EventData d = parse_tensorboard_events(bytes);
  ASSERT_EQ(d.scalars.count("train/loss"), 1u);
  const TagSeries& s = d.scalars.at("train/loss");
  ASSERT_EQ(s.values.size(), 1u);
  EXPECT_EQ(s.steps[0], 7);
  EXPECT_EQ(s.values[0], static_cast<double>(v));  // exact
  EXPECT_EQ(s.wall_times[0], 2.0);
  EXPECT_EQ(d.records, 2u);
}

TEST(TensorBoardEvents, TensorScalarsInEveryField) {
  const float f = 0.125f;
  const double dv = 0.1;
  // float_val packed (torch new_style), double_val, tensor_content (TF2), half_val (DT_HALF 1.5).
  const std::string float_val = varint_field(1, 1) + len_field(5, float_bits(f));
  const std::string double_val = varint_field(1, 2) + double_field(6, dv);
  const std::string content = varint_field(1, 1) + len_field(4, float_bits(3.5f));
  const std::string half = varint_field(1, 19) + len_field(13, varint(0x3E00));
  const std::string bytes =
      record(event(1, 1, tensor_value("a", float_val, true))) +
      record(event(1, 2, tensor_value("a", float_val, false))) +  // metadata only on the first
      record(event(1, 1, tensor_value("b", double_val, true))) +
      record(event(1, 1, tensor_value("c", content, true))) +
      record(event(1, 1, tensor_value("d", half, true)));
  const EventData d = parse_tensorboard_events(bytes);
  ASSERT_EQ(d.scalars.at("a").values.size(), 2u);
  EXPECT_EQ(d.scalars.at("a").values[1], 0.125);
  EXPECT_EQ(d.scalars.at("b").values[0], 0.1);
  EXPECT_EQ(d.scalars.at("c").values[0], 3.5);
  EXPECT_EQ(d.scalars.at("d").values[0], 1.5);
}

TEST(TensorBoardEvents, HparamsSessionStartInfoAsTensorboardXWritesIt) {
  // tensorboardX tests/expect/test_summary.test_hparams.expect: {'lr': 0.1}.
  const std::string content("\032\021\n\017\n\002lr\022\t\021\232\231\231\231\231\231\271?", 19);
  const std::string value =
      len_field(1, "_hparams_/session_start_info") + metadata("hparams", content);
  const EventData d = parse_tensorboard_events(record(event(1, 0, value)));
  ASSERT_EQ(d.hparams.count("lr"), 1u);
  EXPECT_EQ(*d.hparams.at("lr").number, 0.1);
  EXPECT_TRUE(d.scalars.empty());
}

TEST(TensorBoardEvents, PartialLastRecordIsLeftForTheNextRead) {
  const std::string a = record(event(1, 1, simple_value("loss", 1.f)));
  const std::string b = record(event(1, 2, simple_value("loss", 2.f)));
  for (size_t cut = 1; cut < b.size(); ++cut) {
    const RecordScan scan = scan_records(a + b.substr(0, cut));
    EXPECT_EQ(scan.records.size(), 1u) << cut;
    EXPECT_EQ(scan.consumed, a.size()) << cut;
    EXPECT_FALSE(scan.corruption) << cut;
  }
  EXPECT_EQ(scan_records(a + b).records.size(), 2u);
}

TEST(TensorBoardEvents, CrcMismatchNamesTheByteAndKeepsWhatCameBefore) {
  const std::string a = record(event(1, 1, simple_value("loss", 1.f)));
  std::string b = record(event(1, 2, simple_value("loss", 2.f)));
  b[b.size() - 6] ^= 0x01;  // a bit of the data
  const RecordScan scan = scan_records(a + b + a, 100);
  EXPECT_EQ(scan.records.size(), 1u);
  ASSERT_TRUE(scan.corruption);
  EXPECT_EQ(*scan.corruption,
            "CRC mismatch of the data of the record at byte " + std::to_string(100 + a.size()));
  std::string c = a;
  c[3] ^= 0x01;  // the length
  const RecordScan bad_length = scan_records(c);
  ASSERT_TRUE(bad_length.corruption);
  EXPECT_NE(bad_length.corruption->find("length"), std::string::npos);
}

TEST(TensorBoardEvents, AnEventThatDoesNotDecodeIsSkippedAndCounted) {
  const std::string broken = record(std::string("\x0a\xff\x01", 3));  // a length past the end
  const std::string good = record(event(1, 1, simple_value("loss", 1.f)));
  const EventData d = parse_tensorboard_events(good + broken + good);
  EXPECT_EQ(d.bad_events, 1u);
  EXPECT_EQ(d.scalars.at("loss").values.size(), 2u);
  ASSERT_EQ(d.notes.size(), 1u);
}

TEST(TensorBoardEvents, NonUtf8TagIsReadAndSaid) {
  const EventData d = parse_tensorboard_events(record(event(1, 1, simple_value("lo\xffss", 1.f))));
  ASSERT_EQ(d.scalars.size(), 1u);
  EXPECT_EQ(d.scalars.begin()->first, "lo\xEF\xBF\xBDss");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("not UTF-8"), std::string::npos);
}

TEST(TensorBoardEvents, NanLossIsKept) {
  const EventData d = parse_tensorboard_events(record(event(1, 1, simple_value("loss", NAN))));
  EXPECT_TRUE(std::isnan(d.scalars.at("loss").values[0]));
}

}  // namespace
}  // namespace parity::ingest

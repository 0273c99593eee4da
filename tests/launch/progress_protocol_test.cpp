#include <gtest/gtest.h>
#include <parity/launch/progress_protocol.h>

#include <clocale>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace parity::launch {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Exact equality, NaN equal to NaN.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

template <class T>
T round_trip(const T& message) {
  const std::string line = encode_line(message);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  const auto decoded = decode_line(line);
  EXPECT_TRUE(decoded.has_value()) << line;
  EXPECT_TRUE(decoded && std::holds_alternative<T>(*decoded)) << line;
  return decoded && std::holds_alternative<T>(*decoded) ? std::get<T>(*decoded) : T{};
}

TEST(ProgressProtocol, StepRoundTripIsExact) {
  StepRecord s;
  s.step = 1234567890123;
  s.epoch = 2.0 / 3.0;
  s.samples = 987654321;
  s.loss = 0.1 + 0.2;
  s.rank_losses = {1e-300, -0.0, kNan, kInf, -kInf, 5e-324, std::nextafter(1.0, 2.0)};
  s.lr = 1.0 / 7.0;
  s.time_s = 12345.678901234567;
  const StepRecord back = round_trip(s);
  EXPECT_EQ(back.step, s.step);
  EXPECT_EQ(back.epoch, s.epoch);
  EXPECT_EQ(back.samples, s.samples);
  EXPECT_EQ(back.loss, s.loss);
  EXPECT_EQ(back.lr, s.lr);
  EXPECT_EQ(back.time_s, s.time_s);
  ASSERT_EQ(back.rank_losses.size(), s.rank_losses.size());
  for (size_t i = 0; i < s.rank_losses.size(); ++i) {
    EXPECT_TRUE(same(back.rank_losses[i], s.rank_losses[i])) << i;
  }
  EXPECT_TRUE(std::signbit(back.rank_losses[1]));
}

TEST(ProgressProtocol, NanAndInfLossesSurvive) {
  StepRecord s;
  s.loss = kNan;
  EXPECT_TRUE(std::isnan(round_trip(s).loss));
  s.loss = -kInf;
  EXPECT_EQ(round_trip(s).loss, -kInf);
  EXPECT_TRUE(round_trip(s).rank_losses.empty());
}

TEST(ProgressProtocol, StartEvalEndHeartbeat) {
  RunStart start;
  start.total_steps = 938;
  start.steps_per_epoch = 469;
  start.train_samples = 60000;
  start.test_samples = 10000;
  start.effective_lr = 0.1;
  start.blas_warning = "slow BLAS: 3.1 GFLOP/s (100% reference)\nsecond line";
  start.model.parameters = 97;
  start.model.layer_kinds = {"Batch Norm 1d", "Dropout", "100%"};  // spaces and % survive
  start.model.dropout = true;
  start.model.dropout_p = 0.3;
  start.model.batch_norm = true;
  const RunStart s = round_trip(start);
  EXPECT_EQ(s.model.parameters, 97);
  EXPECT_EQ(s.model.layer_kinds, start.model.layer_kinds);
  EXPECT_TRUE(s.model.dropout);
  EXPECT_EQ(s.model.dropout_p, 0.3);
  EXPECT_TRUE(s.model.batch_norm);
  EXPECT_EQ(s.total_steps, 938);
  EXPECT_EQ(s.steps_per_epoch, 469);
  EXPECT_EQ(s.train_samples, 60000);
  EXPECT_EQ(s.test_samples, 10000);
  EXPECT_EQ(s.effective_lr, 0.1);
  EXPECT_EQ(s.blas_warning, start.blas_warning);
  EXPECT_EQ(round_trip(RunStart{}).blas_warning, "");
  EXPECT_FALSE(decode_line("B 1 1 1 1 0.1 {not-json} warning"));  // a bad model field: no message

  EvalRecord eval;
  eval.epoch = 3;
  eval.step = 1407;
  eval.samples = 180000;
  eval.loss = 0.3333333333333333;
  eval.accuracy = 0.8765;
  const EvalRecord e = round_trip(eval);
  EXPECT_EQ(e.epoch, 3);
  EXPECT_EQ(e.step, 1407);
  EXPECT_EQ(e.samples, 180000);
  EXPECT_EQ(e.loss, eval.loss);
  EXPECT_EQ(e.accuracy, 0.8765);
  EXPECT_EQ(round_trip(EvalRecord{}).accuracy, -1);

  for (RunOutcome o :
       {RunOutcome::kFinished, RunOutcome::kDiverged, RunOutcome::kFailed, RunOutcome::kStopped}) {
    RunEnd end;
    end.outcome = o;
    end.message = "rank 1: loss is nan at step 7  (two spaces, tab\there, 100%, trailing ";
    end.samples_per_s = 1234.5;
    const RunEnd back = round_trip(end);
    EXPECT_EQ(back.outcome, o);
    EXPECT_EQ(back.message, end.message);
    EXPECT_EQ(back.samples_per_s, 1234.5);
  }
  EXPECT_EQ(round_trip(RunEnd{}).message, "");

  const Heartbeat h = round_trip(Heartbeat{3, 42});
  EXPECT_EQ(h.rank, 3);
  EXPECT_EQ(h.step, 42);
}

TEST(ProgressProtocol, StepToString) {
  EXPECT_EQ(to_string(RunOutcome::kFinished), "finished");
  EXPECT_EQ(to_string(RunOutcome::kDiverged), "diverged");
  EXPECT_EQ(to_string(RunOutcome::kFailed), "failed");
  EXPECT_EQ(to_string(RunOutcome::kStopped), "stopped");
}

TEST(ProgressProtocol, AcceptsLinesWithoutNewlineOrWithCrLf) {
  std::string line = encode_line(Heartbeat{1, 5});
  line.pop_back();
  EXPECT_TRUE(decode_line(line).has_value());
  EXPECT_TRUE(decode_line(line + "\r\n").has_value());
  EXPECT_TRUE(decode_line("X finished 10").has_value());  // empty text, trailing space trimmed
}

TEST(ProgressProtocol, GarbageIsNotAMessage) {
  const char* garbage[] = {
      "",
      "\n",
      "hello world",
      "H",
      "H ",
      "H 1",
      "H 1 2 3",
      "H1 2",
      "H  1 2",
      "H 1 two",
      "H 1 2x",
      "H 99999999999 2",
      "S 1 0.5 10 0.1 0.1 1.0 2 0.5",
      "S 1 0.5 10 0.1 0.1 1.0 -1",
      "S 1 0.5 10 0.1 0.1 1.0 99999999999",
      "E 1 2 3 4",
      "X exploded 1 boom",
      "X finished abc boom",
      "X failed 1 bad %zz escape",
      "X failed 1 cut %4",
      "B 1 2 3 4",
      "Z 1 2",
      "[W ProcessGroupGloo.cpp:694] Warning: Unable to resolve hostname",
      "\x01\x02\xff",
  };
  for (const char* line : garbage) EXPECT_FALSE(decode_line(line).has_value()) << line;
}

TEST(ProgressProtocol, IndependentOfTheNumericLocale) {
  // A Qt GUI adopts LC_NUMERIC from the environment; "0.5" must still read as one half.
  const char* previous = std::setlocale(LC_NUMERIC, nullptr);
  const std::string saved = previous ? previous : "C";
  bool switched = false;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
    if (std::setlocale(LC_NUMERIC, name)) {
      switched = true;
      break;
    }
  }
  StepRecord s;
  s.loss = 0.5;
  s.lr = 1.25;
  const std::string line = encode_line(s);
  const auto back = decode_line(line);
  std::setlocale(LC_NUMERIC, saved.c_str());
  EXPECT_EQ(line.find(','), std::string::npos) << line;
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(std::get<StepRecord>(*back).loss, 0.5);
  EXPECT_EQ(std::get<StepRecord>(*back).lr, 1.25);
  // Without a comma-decimal locale installed this still checks the C locale.
  (void)switched;
}

}  // namespace
}  // namespace parity::launch

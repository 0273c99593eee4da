// The command template: split as a POSIX shell splits words, placeholders replaced inside words,
// nothing else a shell does.

#include <gtest/gtest.h>
#include <parity/launch/command_template.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/parity_line.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace parity::launch {
namespace {

using Words = std::vector<std::string>;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const LaunchError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommandTemplate, SplitsAsAPosixShellSplitsWords) {
  EXPECT_EQ(split_command("  a  b\tc\n"), (Words{"a", "b", "c"}));
  EXPECT_EQ(split_command("'a b' \"c d\" e\\ f"), (Words{"a b", "c d", "e f"}));
  EXPECT_EQ(split_command("x'y'\"z\""), (Words{"xyz"}));
  EXPECT_EQ(split_command("\"a\\\"b\\\\c\\$d\\x\""), (Words{"a\"b\\c$d\\x"}));
  EXPECT_EQ(split_command("'it'\\''s'"), (Words{"it's"}));
  EXPECT_EQ(split_command("a '' b"), (Words{"a", "", "b"}));
  EXPECT_EQ(split_command("a \\\n b"), (Words{"a", "b"}));
}

TEST(CommandTemplate, ShellSyntaxIsOnlyText) {
  EXPECT_EQ(split_command("train.py; rm -rf x | tee $(id) `id` > out &"),
            (Words{"train.py;", "rm", "-rf", "x", "|", "tee", "$(id)", "`id`", ">", "out", "&"}));
  EXPECT_EQ(split_command("$HOME *.py #comment"), (Words{"$HOME", "*.py", "#comment"}));
}

TEST(CommandTemplate, BadQuotingIsRefusedWithItsColumn) {
  EXPECT_EQ(error_of([] { split_command("python 'train.py"); }),
            "unterminated ' quote at column 8");
  EXPECT_EQ(error_of([] { split_command("a \"b"); }), "unterminated \" quote at column 3");
  EXPECT_EQ(error_of([] { split_command("a\\"); }), "a trailing backslash at column 2");
  EXPECT_EQ(error_of([] { split_command("   "); }), "the command is empty");
}

TEST(CommandTemplate, PlaceholdersAreReplacedInsideWordsAndNeverSplitThem) {
  const Words words = split_command(
      "accelerate launch --num_processes {num_processes} train.py --bs={per_device_batch_size} "
      "--name '{label} run' --out {run_dir}/ckpt {{literal}}");
  EXPECT_EQ(used_placeholders(words),
            (Words{"num_processes", "per_device_batch_size", "label", "run_dir"}));
  const std::map<std::string, std::string> values = {{"num_processes", "2"},
                                                     {"per_device_batch_size", "16"},
                                                     {"label", "a; rm -rf / $(id) 'q' \"d\""},
                                                     {"run_dir", "/tmp/my runs/7"}};
  EXPECT_EQ(
      expand_command(words, values),
      (Words{"accelerate", "launch", "--num_processes", "2", "train.py", "--bs=16", "--name",
             "a; rm -rf / $(id) 'q' \"d\" run", "--out", "/tmp/my runs/7/ckpt", "{literal}"}));
}

TEST(CommandTemplate, UnknownOrMissingPlaceholdersAreRefusedByName) {
  const std::string unknown = error_of([] { used_placeholders({"train.py", "--bs={batch}"}); });
  EXPECT_NE(unknown.find("unknown placeholder {batch} in word 2 '--bs={batch}'; known: "
                         "{num_processes}, {per_device_batch_size}"),
            std::string::npos)
      << unknown;
  EXPECT_EQ(error_of([] {
              expand_command({"x", "{seed}"}, {});
            }),
            "{seed} has no value for this setup (word 2 '{seed}')");
  EXPECT_EQ(error_of([] { used_placeholders({"a{seed"}); }), "unclosed '{' in word 1 'a{seed'");
  EXPECT_EQ(error_of([] { used_placeholders({"a}"}); }),
            "a lone '}' in word 1 'a}' (write }} for a literal brace)");
}

TEST(CommandTemplate, QuotedLineReadsBackAsTheSameWords) {
  const Words words = {"python3", "train.py", "--name", "it's a \"run\"", "", "$(id);", "a\\b"};
  EXPECT_EQ(split_command(quote_command(words)), words);
  EXPECT_EQ(quote_command({"torchrun", "--nproc_per_node=2", "x.py"}),
            "torchrun --nproc_per_node=2 x.py");
}

TEST(CommandTemplate, ASetupsValuesAreTheNumbersItsOptimizerUses) {
  config::RunConfig c;
  c.label = "2x16 bf16";
  c.num_processes = 2;
  c.per_device_batch_size = 16;
  c.gradient_accumulation_steps = 2;
  c.lr = 0.1;
  c.lr_scaling = config::LrScaling::kLinear;
  c.seed = 7;
  c.mixed_precision = config::MixedPrecision::kBf16;
  const auto v = command_values(c, {1, 29501, "/tmp/run 9", 9});
  EXPECT_EQ(v.size(), command_placeholders().size());
  for (const auto& name : command_placeholders()) EXPECT_EQ(v.count(name), 1u) << name;
  EXPECT_EQ(v.at("learning_rate"), "0.2");  // scaled with the 2 processes, as the setup says
  EXPECT_EQ(v.at("mixed_precision"), "bf16");
  EXPECT_EQ(v.at("per_device_batch_size"), "16");
  EXPECT_EQ(v.at("gradient_accumulation_steps"), "2");
  EXPECT_EQ(v.at("main_process_port"), "29501");
  EXPECT_EQ(v.at("run_dir"), "/tmp/run 9");
  EXPECT_EQ(v.at("label"), "2x16 bf16");
  c.lr = 1.0 / 3;
  c.lr_scaling = config::LrScaling::kNone;
  EXPECT_EQ(std::stod(command_values(c, {}).at("learning_rate")), 1.0 / 3);  // reads back exactly
}

TEST(ParityLine, StepsEvaluationsAndHparams) {
  EXPECT_FALSE(parse_parity_line("epoch 1: loss 0.5"));
  EXPECT_FALSE(parse_parity_line("PARITY"));  // no space, no object: not the protocol
  const auto step =
      parse_parity_line(R"(PARITY {"step": 12, "loss": 0.53, "lr": 0.05, "samples": 768})");
  ASSERT_TRUE(step && step->step);
  EXPECT_EQ(step->step->step, 12);
  EXPECT_DOUBLE_EQ(step->step->loss, 0.53);
  EXPECT_DOUBLE_EQ(step->step->lr, 0.05);
  EXPECT_EQ(step->step->samples, 768);
  EXPECT_FALSE(step->eval);
  const auto nan = parse_parity_line(R"(PARITY {"v": 1, "step": 3, "loss": NaN})");
  ASSERT_TRUE(nan && nan->step);
  EXPECT_TRUE(std::isnan(nan->step->loss));
  const auto inf = parse_parity_line(R"(PARITY {"step": 3, "loss": -Infinity, "note": "NaN"})");
  EXPECT_TRUE(std::isinf(inf->step->loss));
  const auto eval =
      parse_parity_line(R"(PARITY {"step": 9, "eval_loss": 0.6, "eval_accuracy": 0.8})");
  ASSERT_TRUE(eval && eval->eval);
  EXPECT_DOUBLE_EQ(eval->eval->accuracy, 0.8);
  EXPECT_EQ(eval->eval->step, 9);
  const auto hp = parse_parity_line(R"(PARITY {"hparams": {"per_device_train_batch_size": 16}})");
  ASSERT_TRUE(hp);
  EXPECT_EQ(hp->hparams.at("per_device_train_batch_size"), "16");
}

TEST(ParityLine, MalformedLinesSayWhy) {
  EXPECT_NE(error_of([] { parse_parity_line("PARITY {\"step\": 1, "); }).find("is not JSON"),
            std::string::npos);
  EXPECT_EQ(error_of([] { parse_parity_line(R"(PARITY {"loss": 1})"); }),
            "PARITY line: 'loss' without 'step'");
  EXPECT_EQ(error_of([] { parse_parity_line(R"(PARITY {"step": 1.5, "loss": 1})"); }),
            "PARITY line: 'step' is not a whole number >= 0: 1.5");
  EXPECT_EQ(error_of([] { parse_parity_line(R"(PARITY {"v": 2, "step": 1, "loss": 1})"); }),
            "PARITY line: version 2 is not supported (this is 1)");
  EXPECT_EQ(error_of([] { parse_parity_line(R"(PARITY {"step": 1, "loss": "low"})"); }),
            "PARITY line: 'loss' is not a number: \"low\"");
}

}  // namespace
}  // namespace parity::launch

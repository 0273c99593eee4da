#include <gtest/gtest.h>
#include <parity/config/run_config.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace parity::config {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

RunConfig unusual() {
  RunConfig c;
  c.label = "2x128 \"linear\" lr";
  c.seed = -5;
  c.data_seed = 1234567890123;
  c.device_specific_seed = true;
  c.device = Device::kCuda;
  c.num_processes = 8;
  c.per_device_batch_size = 32;
  c.gradient_accumulation_steps = 3;
  c.mixed_precision = MixedPrecision::kBf16;
  c.lr_scaling = LrScaling::kSqrt;
  c.split_batches = true;
  c.even_batches = false;
  c.drop_last = true;
  c.epochs = 4;
  c.max_steps = 77;
  c.dataset = DatasetKind::kCsv;
  c.data_path = "/tmp/data set.csv";
  c.features = {"a", "b c"};
  c.target = "y";
  c.task = Task::kRegression;
  c.train_samples = 500;
  c.synthetic_samples = 9;
  c.synthetic_noise = 0.1 + 0.2;
  c.model = ModelKind::kLinear;
  c.init = Init::kZeros;
  c.hidden = {3};
  c.optimizer = OptimizerKind::kAdamW;
  c.lr = 1.0 / 3.0;
  c.momentum = 0.9;
  c.weight_decay = 1e-4;
  c.scheduler = SchedulerKind::kStep;
  c.warmup_steps = 10;
  c.scheduler_step_size = 20;
  c.scheduler_gamma = 0.5;
  c.loss = LossKind::kMse;
  c.eval_every_epoch = false;
  c.command = "python3 train.py --bs {per_device_batch_size} --name 'a b'";
  c.workdir = "/home/u/project";
  c.command_env = {"OMP_NUM_THREADS=1", "WANDB_MODE=offline"};
  c.capture = "tensorboard";
  return c;
}

TEST(RunConfigJson, RoundTripKeepsEveryField) {
  const RunConfig c = unusual();
  const std::string text = to_json(c);
  const RunConfig back = from_json(text);
  EXPECT_EQ(to_json(back), text);
  EXPECT_EQ(back.lr, c.lr);
  EXPECT_EQ(back.synthetic_noise, c.synthetic_noise);
  EXPECT_EQ(back.data_seed, c.data_seed);
  EXPECT_EQ(back.features, c.features);
  EXPECT_EQ(back.mixed_precision, MixedPrecision::kBf16);
  EXPECT_EQ(to_json(RunConfig{}, -1), to_json(from_json(to_json(RunConfig{})), -1));
}

// A value for the field other than the one config holds, made from the field's kind alone, so a
// field added to the table is covered without editing this test.
std::string other_value(const RunConfig& config, const ConfigField& f) {
  const std::string name(f.name), now = field_text(config, name);
  switch (f.kind) {
    case FieldKind::kInt:
      return now.empty() ? "11" : std::to_string(std::stoll(now) + 3);
    case FieldKind::kNumber:
      return now == "0.375" ? "0.625" : "0.375";
    case FieldKind::kBool:
    case FieldKind::kSwitch:
      return now == "true" ? "false" : "true";
    case FieldKind::kText:
    case FieldKind::kPath:
    case FieldKind::kColumn:
      return now + "/x y \"z\"";
    case FieldKind::kIntList:
      return now == "3,5" ? "7" : "3,5";
    case FieldKind::kColumns:
      return now == "a,b c" ? "d" : "a,b c";
    case FieldKind::kName: {
      // The enum's spellings, as the parser's own refusal lists them.
      RunConfig probe;
      std::string allowed;
      try {
        set_field_from_text(probe, name, "no-such-spelling");
      } catch (const ConfigError& e) {
        allowed = e.allowed();
      }
      const std::string prefix = "must be one of ";
      EXPECT_EQ(allowed.rfind(prefix, 0), 0u) << name << ": " << allowed;
      std::string spelling, rest = allowed.substr(std::min(allowed.size(), prefix.size()));
      for (size_t at = 0; at <= rest.size();) {
        const size_t comma = std::min(rest.find(", ", at), rest.size());
        const std::string s = rest.substr(at, comma - at);
        if (!s.empty() && s != now) spelling = s;
        at = comma + 2;
      }
      return spelling;
    }
  }
  ADD_FAILURE() << name << ": a field kind this test does not know; give it a value here";
  return now;
}

// Every field of the table set to a value other than its default, through the command line's
// reader, survives JSON both ways.
TEST(RunConfigJson, RoundTripKeepsEveryFieldOfTheTable) {
  const RunConfig defaults;
  RunConfig c;
  for (const ConfigField& f : config_fields()) {
    const std::string name(f.name), value = other_value(defaults, f);
    set_field_from_text(c, name, value);
    EXPECT_NE(field_text(c, name), field_text(defaults, name)) << name << " kept its default";
  }
  const RunConfig back = from_json(to_json(c));
  for (const ConfigField& f : config_fields()) {
    const std::string name(f.name);
    EXPECT_EQ(field_text(back, name), field_text(c, name)) << name;
  }
  EXPECT_EQ(to_json(back), to_json(c));
}

// A number past double's range is refused as bad JSON, naming it: it ended the program with
// std::terminate (nlohmann's out_of_range escaped; found by tests/fuzz/run_config_fuzz).
TEST(RunConfigJson, ANumberPastDoublesRangeIsRefusedNotFatal) {
  const std::string error = error_of([] { from_json("{\"hidden\": [2e561, 28]}"); });
  EXPECT_NE(error.find("must be valid JSON"), std::string::npos) << error;
  EXPECT_NE(error.find("2e561"), std::string::npos) << error;
}

// One table of fields: JSON writes exactly config_fields(), and every one of them can be set
// from its command-line text (what parity-cli's flags do) to the same value JSON carries.
TEST(ConfigFields, EveryFieldIsInJsonAndSettableFromText) {
  const RunConfig c = unusual();
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(to_json(c));
  std::vector<std::string> json_keys, table_keys;
  for (const auto& item : j.items()) json_keys.push_back(item.key());
  for (const ConfigField& f : config_fields()) {
    table_keys.emplace_back(f.name);
    EXPECT_FALSE(f.help.empty()) << f.name;
    EXPECT_TRUE(f.group == "Setup" || f.group == "Experiment") << f.name;
  }
  EXPECT_EQ(table_keys, json_keys);

  RunConfig from_text;
  for (const auto& [key, value] : j.items()) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_array()) {
      for (const auto& e : value) {
        text += (text.empty() ? "" : ",") + (e.is_string() ? e.get<std::string>() : e.dump());
      }
    } else {
      text = value.dump();
    }
    set_field_from_text(from_text, key, text);
  }
  EXPECT_EQ(to_json(from_text), to_json(c));
}

// An engine setup's JSON has no command keys (it reads as it did before they existed); a command
// setup's has them, and its data and model are not the engine's to check.
TEST(ConfigFields, CommandKeysOnlyForACommandSetupWhoseDataIsItsOwn) {
  RunConfig c;
  EXPECT_EQ(to_json(c).find("command"), std::string::npos);
  EXPECT_EQ(to_json(c).find("workdir"), std::string::npos);
  c.command = "python3 train.py";
  c.dataset = DatasetKind::kCsv;  // no data file, no target: the engine would refuse it
  c.device = Device::kCuda;       // the user's script may use a GPU this build has not
  EXPECT_TRUE(check(c).empty()) << check(c).front().message;
  EXPECT_NE(to_json(c).find("\"command\": \"python3 train.py\""), std::string::npos) << to_json(c);
  c.command_env = {"=x"};
  ASSERT_EQ(check(c).size(), 1u);
  EXPECT_EQ(check(c).front().field, "command_env");
  RunConfig engine;
  engine.workdir = "/tmp";
  ASSERT_FALSE(check(engine).empty());
  EXPECT_EQ(check(engine).front().field, "workdir");
}

TEST(ConfigFields, TextThatIsNotTheFieldsKindNamesTheField) {
  RunConfig c;
  EXPECT_EQ(error_of([&] { set_field_from_text(c, "num_processes", "two"); }),
            "num_processes: two is not allowed; must be an integer");
  EXPECT_EQ(error_of([&] { set_field_from_text(c, "lr", "0.1x"); }),
            "lr: 0.1x is not allowed; must be a number");
  EXPECT_EQ(error_of([&] { set_field_from_text(c, "even_batches", "maybe"); }),
            "even_batches: maybe is not allowed; must be true or false");
  EXPECT_NE(error_of([&] { set_field_from_text(c, "num_proceses", "2"); }).find("num_processes"),
            std::string::npos);
  set_field_from_text(c, "per-device-batch-size", "48");  // the flag's spelling works too
  EXPECT_EQ(c.per_device_batch_size, 48);
  set_field_from_text(c, "drop_last", "yes");
  EXPECT_TRUE(c.drop_last);
}

TEST(RunConfigJson, SnakeCaseKeysAndCliSpellings) {
  const std::string text = to_json(RunConfig{}, -1);
  EXPECT_NE(text.find("\"per_device_batch_size\":64"), std::string::npos) << text;
  EXPECT_NE(text.find("\"data_seed\":null"), std::string::npos) << text;
  EXPECT_NE(text.find("\"dataset\":\"fashion-mnist\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"mixed_precision\":\"no\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"loss\":\"auto\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"hidden\":[256,128]"), std::string::npos) << text;
}

TEST(RunConfigJson, MissingKeysKeepDefaultsAndKebabCaseIsAccepted) {
  const RunConfig c = from_json(
      R"({"per-device-batch-size": 128, "num_processes": 2, "lr-scaling": "linear",
          "data": "/d", "hidden": "64,32", "features": "x1,x2", "data-seed": null})");
  EXPECT_EQ(c.per_device_batch_size, 128);
  EXPECT_EQ(c.num_processes, 2);
  EXPECT_EQ(c.lr_scaling, LrScaling::kLinear);
  EXPECT_EQ(c.data_path, "/d");
  EXPECT_EQ(c.hidden, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(c.features, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_FALSE(c.data_seed.has_value());
  EXPECT_EQ(c.seed, RunConfig{}.seed);
  EXPECT_EQ(c.epochs, RunConfig{}.epochs);
  EXPECT_EQ(from_json("{\"epochs\": 3.0}").epochs, 3);
}

TEST(RunConfigJson, RejectsUnknownKeysBadTypesAndBadEnums) {
  EXPECT_EQ(error_of([] { from_json(R"({"batch_size": 32})"); }),
            "batch_size: 32 is not allowed; unknown key");
  EXPECT_EQ(error_of([] { from_json(R"({"num-process": 2})"); }),
            "num-process: 2 is not allowed; unknown key (did you mean num_processes?)");
  EXPECT_EQ(error_of([] { from_json(R"({"num_processes": "two"})"); }),
            "num_processes: \"two\" is not allowed; must be an integer");
  EXPECT_EQ(error_of([] { from_json(R"({"epochs": 1.5})"); }),
            "epochs: 1.5 is not allowed; must be an integer");
  EXPECT_EQ(error_of([] { from_json(R"({"split_batches": 1})"); }),
            "split_batches: 1 is not allowed; must be true or false");
  EXPECT_EQ(error_of([] { from_json(R"({"lr": "0.1"})"); }),
            "lr: \"0.1\" is not allowed; must be a number");
  EXPECT_EQ(error_of([] { from_json(R"({"device": "tpu"})"); }),
            "device: tpu is not allowed; must be one of cpu, cuda");
  EXPECT_EQ(error_of([] { from_json(R"({"device": 3})"); }),
            "device: 3 is not allowed; must be a string");
  EXPECT_EQ(error_of([] { from_json(R"({"hidden": [1, "x"]})"); }),
            "hidden: [1,\"x\"] is not allowed; must be an array of integers (or \"256,128\")");
  EXPECT_EQ(error_of([] { from_json(R"({"num_processes": 99999999999})"); }),
            "num_processes: 99999999999 is not allowed; must fit in a 32-bit integer");
  EXPECT_EQ(error_of([] { from_json("[1]"); }),
            "config: [1] is not allowed; must be a JSON object");
  EXPECT_NE(
      error_of([] { from_json("{"); }).find("config: text is not allowed; must be valid JSON"),
      std::string::npos);
  // Range checks are validate()'s job, so a loaded config can still be shown and fixed.
  EXPECT_EQ(from_json(R"({"num_processes": 0})").num_processes, 0);
}

TEST(RunConfigJson, SetWithExperimentAndOverrides) {
  const std::vector<RunConfig> configs = configs_from_set_json(R"({
    "name": "seed lesson",
    "experiment": {"dataset": "synthetic-regression", "task": "regression", "model": "linear",
                   "lr": 0.01, "per-device-batch-size": 16},
    "setups": [
      {"label": "1x16"},
      {"label": "2x8", "num_processes": 2, "per_device_batch_size": 8},
      {"label": "2x16 linear", "num-processes": 2, "lr_scaling": "linear", "lr": 0.02}
    ]})");
  ASSERT_EQ(configs.size(), 3u);
  EXPECT_EQ(configs[0].label, "1x16");
  EXPECT_EQ(configs[0].per_device_batch_size, 16);
  EXPECT_EQ(configs[0].dataset, DatasetKind::kSyntheticRegression);
  EXPECT_EQ(configs[1].num_processes, 2);
  EXPECT_EQ(configs[1].per_device_batch_size, 8);
  EXPECT_EQ(configs[1].lr, 0.01);
  EXPECT_EQ(configs[2].per_device_batch_size, 16);
  EXPECT_EQ(configs[2].lr, 0.02);
  EXPECT_EQ(configs[2].lr_scaling, LrScaling::kLinear);
  for (const RunConfig& c : configs) EXPECT_TRUE(check(c).empty()) << c.label;
}

TEST(RunConfigJson, SetAsPlainArrayAndErrors) {
  const std::vector<RunConfig> configs =
      configs_from_set_json(R"([{"seed": 1}, {"seed": 2, "epochs": 3}])");
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[1].seed, 2);
  EXPECT_EQ(configs[1].epochs, 3);
  EXPECT_TRUE(configs_from_set_json("[]").empty());
  EXPECT_EQ(error_of([] { configs_from_set_json(R"({"setups": [{}, {"epochs": "x"}]})"); }),
            "setups[1].epochs: \"x\" is not allowed; must be an integer");
  EXPECT_EQ(
      error_of([] { configs_from_set_json(R"({"experiment": {"bogus": 1}, "setups": [{}]})"); }),
      "setups[0].bogus: 1 is not allowed; unknown key");
  EXPECT_EQ(error_of([] { configs_from_set_json(R"({"experiments": {}, "setups": []})"); }),
            "experiments: {} is not allowed; unknown key (a set has experiment, setups)");
  EXPECT_EQ(error_of([] { configs_from_set_json(R"({"experiment": {}})"); }),
            "setups: null is not allowed; must be an array of setup objects");
  EXPECT_EQ(error_of([] { configs_from_set_json(R"([3])"); }),
            "setups[0]: 3 is not allowed; must be a JSON object");
  EXPECT_EQ(error_of([] { configs_from_set_json("7"); }),
            "set: 7 is not allowed; must be an object or an array of configs");
}

}  // namespace
}  // namespace parity::config

namespace parity::config {
namespace {

// field_text is what set_field_from_text reads back, for every field (lists, enums, booleans,
// an unset data_seed): the counterfactuals set the reference's values through it.
TEST(ConfigFields, FieldTextRoundTripsThroughSetFieldFromText) {
  RunConfig from;
  from.hidden = {256, 128};
  from.features = {"a", "b"};
  from.lr = 0.1;
  from.mixed_precision = MixedPrecision::kBf16;
  from.use_seedable_sampler = false;
  from.threads_per_rank = 3;
  EXPECT_EQ(field_text(from, "hidden"), "256,128");
  EXPECT_EQ(field_text(from, "data_seed"), "");
  EXPECT_EQ(field_text(from, "use_seedable_sampler"), "false");
  for (const ConfigField& f : config_fields()) {
    const std::string name(f.name);
    if (name == "data_seed") continue;  // unset: "" means "follow the seed", not a value
    RunConfig to;
    set_field_from_text(to, name, field_text(from, name));
    EXPECT_EQ(field_text(to, name), field_text(from, name)) << name;
  }
  EXPECT_EQ(to_json(RunConfig{}).find("\"threads_per_rank\": 0") != std::string::npos, true);
}

}  // namespace
}  // namespace parity::config

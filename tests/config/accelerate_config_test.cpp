// The YAML `accelerate config` writes, read into a setup.
#include <gtest/gtest.h>
#include <parity/config/accelerate_config.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace parity::config {
namespace {

std::string write(const std::string& text) {
  const std::string path = "/tmp/parity-acc-" + std::to_string(::getpid()) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

TEST(AccelerateConfig, ReadsWhatAccelerateConfigWritesForTwoMachines) {
  // As `accelerate config` writes it for 2 machines x 4 GPUs.
  const std::string path = write(
      "compute_environment: LOCAL_MACHINE\n"
      "debug: false\n"
      "distributed_type: MULTI_GPU\n"
      "downcast_bf16: 'no'\n"
      "gpu_ids: all\n"
      "machine_rank: 1\n"
      "main_process_ip: 10.0.0.2\n"
      "main_process_port: 29500\n"
      "main_training_function: main\n"
      "mixed_precision: fp16\n"
      "num_machines: 2\n"
      "num_processes: 8\n"
      "rdzv_backend: static\n"
      "same_network: true\n"
      "tpu_env: []\n"
      "use_cpu: false\n");
  const AccelerateConfig a = read_accelerate_config(path);
  std::remove(path.c_str());
  EXPECT_EQ(a.num_processes, 8);  // the total over both machines
  EXPECT_EQ(a.num_machines, 2);
  EXPECT_EQ(a.machine_rank, 1);
  EXPECT_EQ(a.main_process_ip, "10.0.0.2");
  EXPECT_EQ(a.main_process_port, 29500);
  EXPECT_EQ(a.mixed_precision, MixedPrecision::kFp16);
  EXPECT_EQ(a.device, Device::kCuda);
  EXPECT_TRUE(a.ignored.empty());
  RunConfig c;
  apply_accelerate_config(a, c);
  EXPECT_EQ(c.num_processes, 8);
  EXPECT_EQ(c.device, Device::kCuda);
  EXPECT_EQ(c.gradient_accumulation_steps, 1);  // absent: kept
}

TEST(AccelerateConfig, DeepSpeedAccumulationAndUnusedKeysAreReported) {
  const std::string path = write(
      "distributed_type: DEEPSPEED\n"
      "deepspeed_config:\n  gradient_accumulation_steps: 4\n  zero_stage: 2\n"
      "use_cpu: true\n"
      "fsdp_config: {}\n");
  const AccelerateConfig a = read_accelerate_config(path);
  std::remove(path.c_str());
  EXPECT_EQ(a.gradient_accumulation_steps, 4);
  EXPECT_EQ(a.device, Device::kCpu);
  ASSERT_EQ(a.ignored.size(), 2u);
  EXPECT_EQ(a.ignored[0], "distributed_type: DEEPSPEED (Parity trains plain data parallel)");
  EXPECT_EQ(a.ignored[1], "fsdp_config");
}

TEST(AccelerateConfig, UseSeedableSamplerTopLevelOrUnderDataloaderConfig) {
  for (const char* text :
       {"use_seedable_sampler: false\n", "dataloader_config:\n  use_seedable_sampler: false\n"}) {
    const std::string path = write(text);
    const AccelerateConfig a = read_accelerate_config(path);
    std::remove(path.c_str());
    ASSERT_EQ(a.use_seedable_sampler, false) << text;
    EXPECT_TRUE(a.ignored.empty()) << text;
    RunConfig c;
    apply_accelerate_config(a, c);
    EXPECT_FALSE(c.use_seedable_sampler) << text;
  }
}

TEST(AccelerateConfig, BadFilesAndValuesAreNamed) {
  auto message = [](const std::string& text) {
    const std::string path = write(text);
    try {
      read_accelerate_config(path);
    } catch (const ConfigError& e) {
      std::remove(path.c_str());
      return std::string(e.what());
    }
    std::remove(path.c_str());
    return std::string("accepted");
  };
  EXPECT_NE(message("num_processes: four\n").find("num_processes must be an integer"),
            std::string::npos);
  EXPECT_NE(message("mixed_precision: fp8\n").find("fp8 is not one Parity trains"),
            std::string::npos);
  EXPECT_NE(message("- a\n- b\n").find("must be a YAML mapping"), std::string::npos);
  EXPECT_NE(message("a: [1, 2\n").find("is not YAML"), std::string::npos);
  EXPECT_THROW(read_accelerate_config("/nonexistent/acc.yaml"), ConfigError);
}

// Found by tests/fuzz/accelerate_config_fuzz ("{{}}"): a key that is a mapping or a list escaped
// as YAML::TypedBadConversion from the key's conversion to a name, past the CLI's and the window's
// catch of ConfigError.
TEST(AccelerateConfig, KeysThatAreNotNamesAreNamed) {
  for (const char* text : {"{{}}", "[a]: 1\n", "? {num_processes: 2}\n: 4\n", "? [1, 2]\n"}) {
    try {
      parse_accelerate_config(text, "acc.yaml");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("has a key that is not a name"), std::string::npos)
          << e.what();
    }
  }
  // A null key is a name ("null") Parity does not use, as before.
  const AccelerateConfig a = parse_accelerate_config("~: 1\nnum_processes: 2\n", "acc.yaml");
  EXPECT_EQ(a.num_processes, 2);
  ASSERT_EQ(a.ignored.size(), 1u);
  EXPECT_EQ(a.ignored[0], "null");
}

TEST(AccelerateConfig, TextAndFileReadAlike) {
  const std::string text = "num_processes: 4\nmixed_precision: bf16\nuse_cpu: true\n";
  const std::string path = write(text);
  const AccelerateConfig from_file = read_accelerate_config(path);
  std::remove(path.c_str());
  const AccelerateConfig from_text = parse_accelerate_config(text, path);
  EXPECT_EQ(from_file.num_processes, 4);
  EXPECT_EQ(from_text.num_processes, from_file.num_processes);
  EXPECT_EQ(from_text.mixed_precision, from_file.mixed_precision);
  EXPECT_EQ(from_text.device, from_file.device);
  EXPECT_EQ(from_text.device, Device::kCpu);
  // An empty file is no mapping, whichever way it is read.
  const std::string empty = write("");
  EXPECT_THROW(read_accelerate_config(empty), ConfigError);
  std::remove(empty.c_str());
  EXPECT_THROW(parse_accelerate_config("", "acc.yaml"), ConfigError);
}

}  // namespace
}  // namespace parity::config

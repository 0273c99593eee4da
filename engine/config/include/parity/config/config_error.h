#pragma once
/// A setup that cannot run, in a header of its own.

#include <stdexcept>
#include <string>

namespace parity::config {

/// A config value that is not allowed. what() reads "<field>: <value> is not allowed; <allowed>",
/// or "<field>: <value> is not allowed <condition>; <allowed>" when the value is refused only in
/// combination with another field (e.g. "mixed_precision: fp16 is not allowed on cpu; ...").
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, std::string value, std::string allowed);
  ConfigError(std::string field, std::string value, std::string allowed, std::string condition);
  const std::string& field() const { return field_; }
  const std::string& value() const { return value_; }
  const std::string& allowed() const { return allowed_; }

 private:
  std::string field_, value_, allowed_;
};

}  // namespace parity::config

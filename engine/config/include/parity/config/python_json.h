#pragma once
/// JSON as Python writes it: `json.dumps` (allow_nan=True, its default) writes NaN, Infinity and
/// -Infinity bare, which strict JSON (and nlohmann-json) refuses. Shared by the readers of what a
/// user's Python wrote: the PARITY stdout protocol and the Trainer's trainer_state.json.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace parity::config {

/// `text` with every bare NaN, Infinity and -Infinity outside strings turned into the strings
/// "NaN", "Infinity" and "-Infinity" (which python_number() reads back); strings untouched.
std::string quote_non_finite(std::string_view text);

/// A JSON number, or one of those three strings as the double it stands for; nullopt otherwise.
std::optional<double> python_number(const nlohmann::json& value);

/// `v` as a step (or any count): a whole number an int64 holds; nullopt for a fraction, NaN, an
/// infinity or a number past int64's range (casting those is undefined behaviour).
std::optional<int64_t> whole_number(double v);

}  // namespace parity::config

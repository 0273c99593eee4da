#pragma once
// Private to parity_ingest: text from a file made valid UTF-8 (each invalid byte becomes U+FFFD),
// so a tag or key that is not UTF-8 is still shown and stored, and said.

#include <string>
#include <string_view>

namespace parity::ingest {

inline std::string valid_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    const auto c = static_cast<unsigned char>(in[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= in.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(in[i + k]) >> 6) == 2;
    if (ok && n == 2) ok = c >= 0xC2;
    if (ok) {
      out.append(in.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace parity::ingest

#include "echo.h"

namespace alfred::detail {

std::string clip_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands before a lead
  // byte; a sequence has at most three, anything longer is not UTF-8 anyway.
  for (int backed = 0; backed < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++backed) --cut;
  std::string out(text.substr(0, cut));
  out += "…";
  return out;
}

}  // namespace alfred::detail

#pragma once
/// An open-addressing hash index from keys to positions in the registry's
/// entry vector. The registry looks a UUID up for every id and foreign key of
/// every translated row; a std::map of strings cost an allocation per entry
/// and a string comparison per tree level.
///
///     detail::entry_index index;
///     index.insert(hash, position);  // entries[position] holds the key
///     std::uint32_t at = index.find(hash, [&](std::uint32_t p) { return entries[p].key == key; });
///
/// The index owns only its slots (hash, position); the keys stay in the
/// caller's vector, which the index never sees. The caller keeps the two in
/// step: positions are never removed one by one, so an index whose vector
/// shrank or was reordered is cleared and filled again.

#include <cstdint>
#include <vector>

namespace alfred::detail {

class entry_index {
 public:
  static constexpr std::uint32_t npos = 0xFFFFFFFFu;

  /// The position stored under `hash` for which `same(position)` holds, or npos.
  template <class Same>
  std::uint32_t find(std::uint32_t hash, Same&& same) const {
    if (slots_.empty()) return npos;
    const std::uint32_t mask = std::uint32_t(slots_.size() - 1);
    for (std::uint32_t at = hash & mask;; at = (at + 1) & mask) {
      const slot& s = slots_[at];
      if (s.position == npos) return npos;
      if (s.hash == hash && same(s.position)) return s.position;
    }
  }

  /// Adds `position` under `hash` (the caller checked it is not there yet).
  void insert(std::uint32_t hash, std::uint32_t position) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(slot{hash, position});
    ++size_;
  }

  /// Empties the index and gives its memory back.
  void clear() {
    std::vector<slot>().swap(slots_);
    size_ = 0;
  }

 private:
  struct slot {
    std::uint32_t hash = 0;
    std::uint32_t position = npos;
  };

  void place(slot s) {
    const std::uint32_t mask = std::uint32_t(slots_.size() - 1);
    std::uint32_t at = s.hash & mask;
    while (slots_[at].position != npos) at = (at + 1) & mask;
    slots_[at] = s;
  }

  void grow() {
    std::vector<slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
    for (const slot& s : old)
      if (s.position != npos) place(s);
  }

  std::vector<slot> slots_;
  std::uint32_t size_ = 0;
};

}  // namespace alfred::detail

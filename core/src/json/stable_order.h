#pragma once
// One stable sort for the few lists the core orders by more than their
// natural order (aggregate groups, ranked search rows, the prompt's memory):
// a merge sort of indices with a plain comparison function, compiled once.
// Each std::stable_sort instantiation was about 2 KB of WebAssembly.
//
//     struct by_turn { const std::vector<const ref_entry*>* refs; };
//     auto order = stable_order(refs.size(), [](const void* c, std::size_t a, std::size_t b) {
//       const auto& refs = *static_cast<const by_turn*>(c)->refs;
//       return refs[a]->turn_last > refs[b]->turn_last;
//     }, &context);
//     apply_order(refs, order);

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace alfred::detail {

/// Whether item `a` goes before item `b` (a strict weak order).
using order_less = bool (*)(const void* context, std::size_t a, std::size_t b);

/// The indices 0..n-1 in the order `less` gives, equal items in their
/// original order.
std::vector<std::uint32_t> stable_order(std::size_t n, order_less less, const void* context);

/// `items` rearranged into `order` (from stable_order).
template <typename T>
void apply_order(std::vector<T>& items, const std::vector<std::uint32_t>& order) {
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (const std::uint32_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

}  // namespace alfred::detail

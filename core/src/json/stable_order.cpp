#include "stable_order.h"

#include <algorithm>

namespace alfred::detail {

std::vector<std::uint32_t> stable_order(std::size_t n, order_less less, const void* context) {
  std::vector<std::uint32_t> order(n);
  std::vector<std::uint32_t> merged(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  // Bottom-up: runs of `width` merged in pairs; a tie takes the left run's.
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t low = 0; low < n; low += 2 * width) {
      const std::size_t middle = std::min(low + width, n);
      const std::size_t high = std::min(low + 2 * width, n);
      std::size_t left = low;
      std::size_t right = middle;
      std::size_t out = low;
      while (left < middle && right < high)
        merged[out++] = less(context, order[right], order[left]) ? order[right++] : order[left++];
      while (left < middle) merged[out++] = order[left++];
      while (right < high) merged[out++] = order[right++];
    }
    order.swap(merged);
  }
  return order;
}

}  // namespace alfred::detail

#include "ir/user_kernel.hpp"

#include <atomic>
#include <cstdio>

#include "support/hash.hpp"

namespace ndfuse::ir {

std::shared_ptr<const user_kernel> finish_user_kernel(user_kernel k) {
  std::string material;
  auto field = [&material](std::string_view s) {
    material += std::to_string(s.size());
    material += ':';
    material += s;
  };
  field(k.name);
  field(k.body);
  field(k.preamble);
  for (const auto* list : {&k.in, &k.out}) {
    field(std::to_string(list->size()));
    for (const auto& p : *list) {
      field(p.name);
      field(dtype_name(p.dt));
      field(p.raw ? "raw" : "");
    }
  }
  for (const auto& [letter, t] : k.placeholders) {
    field(std::string(1, letter));
    field(dtype_name(t));
  }
  field(std::to_string(int(k.uses_index) * 2 + int(k.uses_size)));
  char hex[33];
  std::snprintf(
      hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(support::fnv1a(material)),
      static_cast<unsigned long long>(support::fnv1a(material, 0x84222325cbf29ce4ull ^ material.size())));
  k.fingerprint = hex;
  static std::atomic<std::uint64_t> next{1};
  k.id = next.fetch_add(1, std::memory_order_relaxed);
  return std::make_shared<const user_kernel>(std::move(k));
}

}  // namespace ndfuse::ir

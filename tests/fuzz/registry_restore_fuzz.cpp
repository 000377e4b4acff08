// Registry restore (`ref_registry::from_json`): a state from storage the
// caller does not control. What restores must serialize to a state that
// restores to the same text, keep every ref findable, and stay restorable
// after the registry is used (rows registered, artifacts generated and
// saved, the turn moved on).

#include <cstdint>
#include <string>

#include "alfred/registry/registry.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

void check_lookups(const ref_registry& reg, const std::string& state) {
  for (const auto& entry : reg.entries()) {
    const ref_entry* found = reg.find(entry.ref);
    check(found == &entry, "a restored ref is not found", entry.ref + "\n" + state);
    check(reg.resolve(entry.ref) != nullptr, "a restored ref does not resolve", entry.ref + "\n" + state);
    auto name = parse_ref_name(entry.ref);
    check(name && name->prefix == entry.type && name->generated == entry.generated,
          "a ref's type does not match its name", entry.ref + "\n" + state);
    if (!entry.generated) {
      const ref_entry* by_key =
          entry.uuid_key ? reg.find_by_uuid(entry.key, entry.type) : reg.find_by_key(entry.type, entry.key);
      check(by_key == &entry, "a row's key does not find its ref", entry.ref + "\n" + state);
    }
  }
}

// The ref a registration made, or nothing (whether it reports a full prefix
// as "" or as an error).
const std::string* made_ref(const std::string& ref) { return ref.empty() ? nullptr : &ref; }
const std::string* made_ref(const result<std::string>& ref) { return ref ? &*ref : nullptr; }

// Restores `state`, which the registry wrote: it must restore and write the same text again.
ref_registry round_trip(const std::string& state, std::string_view what) {
  auto again = ref_registry::from_json(state);
  if (!again) fail(what, again.err().path + ": " + again.err().message + "\n" + state);
  const std::string rewritten = again->to_json();
  check(rewritten == state, "restore(state) writes another state", state + "\n" + rewritten);
  check_lookups(*again, state);
  return std::move(again).value();
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto restored = ref_registry::from_json(input);
  if (!restored) {
    const auto& code = restored.err().code;
    check(code == "invalid_state" || code == "unsupported_state_version", "an unexpected restore error code", code);
    check(!restored.err().message.empty(), "a restore error without a message");
    return 0;
  }
  const std::string state = restored->to_json();
  // Generated content is kept as the text it was restored from, so a number
  // beyond a double stays as written: JSON (JSON.parse reads Infinity) that
  // nlohmann refuses.
  const auto written = parse_reference(state);
  check(written.value.has_value() || written.number_overflow || !valid_utf8(input),
        "the registry writes a state that is not JSON", state);
  check_lookups(*restored, state);
  ref_registry reg = round_trip(state, "a written state does not restore");

  // Use it as a session would, then restore again. A prefix whose ref
  // numbers are used up gets no new ref ("" or registry_full), never a ref
  // that could not be restored.
  reg.set_turn(reg.turn() + 1);
  const std::string fresh =
      reg.register_row("recipes", "recipe", "f0e1d2c3-b4a5-4968-8776-655443322110", ref_action::created, "Fresh");
  if (!fresh.empty())
    check(reg.find_by_uuid("f0e1d2c3-b4a5-4968-8776-655443322110", "recipe") == reg.find(fresh),
          "a registered row is not found by its UUID", fresh);
  const std::string linked = reg.register_linked("ingredients", "ing", "F0E1D2C3-B4A5-4968-8776-655443322111");
  if (!linked.empty()) check(reg.find(linked) != nullptr, "a linked row is not found", linked);
  const auto generated = reg.register_generated("recipes", "recipe", R"({"name":"Fresh Soup"})", "Fresh Soup");
  if (const std::string* gen = made_ref(generated))
    check(reg.find(*gen) && reg.find(*gen)->pending(), "a generated ref is not pending", *gen);
  std::vector<std::string> pending;
  for (const auto& entry : reg.entries())
    if (entry.pending()) pending.push_back(entry.ref);
  unsigned n = 0;
  for (const auto& ref : pending) {
    char uuid[37];
    std::snprintf(uuid, sizeof uuid, "a0b1c2d3-e4f5-4a6b-8c7d-%012x", ++n);
    auto saved = reg.promote(ref, uuid, {});
    if (!saved && saved.err().code == "registry_full") continue;
    check(saved.ok(), "a pending artifact does not promote", ref + ": " + (saved ? "" : saved.err().message));
    check(reg.resolve(ref) == reg.find(*saved), "a promoted ref does not resolve to its row", ref + " " + *saved);
  }
  reg.end_turn();
  round_trip(reg.to_json(), "a used registry's state does not restore");
  return 0;
}

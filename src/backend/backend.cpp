// The backend table, the one FASTBLAKE_BACKEND parser, and the active backend. Compiled at
// baseline flags: it only compares feature bits and never runs a kernel.
#include "backend/backend.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fastblake/backend.hpp>

#include "accelerator/registry.hpp"
#include "common/cpu_features.hpp"
#include "kernels/blake2/kernels.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal {

namespace {

// Every backend this build has, best first.
#define FASTBLAKE_DEFINE_BACKEND(name, features, blake2_level) \
  constexpr backend name{#name, features, &blake3::name, &blake2::blake2_level, #blake2_level};
FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_DEFINE_BACKEND)
#undef FASTBLAKE_DEFINE_BACKEND

#define FASTBLAKE_LIST_BACKEND(name, features, blake2_level) &name,
constexpr std::array compiled = {FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_LIST_BACKEND)};
#undef FASTBLAKE_LIST_BACKEND

constexpr std::string_view known_names = FASTBLAKE_KNOWN_BACKEND_NAMES;

struct availability {
  std::array<const backend*, compiled.size()> list{};
  std::size_t count = 0;
};

const availability& available() noexcept {
  static const availability a = [] {
    availability r;
    const std::uint32_t have = cpu_features();
    for (const backend* b : compiled) {
      if ((b->required_features & have) == b->required_features) r.list[r.count++] = b;
    }
    return r;
  }();
  return a;
}

bool is_known(std::string_view name) noexcept {
  for (std::size_t from = 0; from < known_names.size();) {
    const std::size_t comma = std::min(known_names.find(',', from), known_names.size());
    if (known_names.substr(from, comma - from) == name) return true;
    from = comma + 2;
  }
  return false;
}

std::string_view environment_choice() noexcept {
  const char* env = std::getenv("FASTBLAKE_BACKEND");
  return env == nullptr ? std::string_view() : std::string_view(env);
}

// Whether name keeps the offload off: "cpu" or a CPU backend's, available or not.
bool names_the_cpu(std::string_view name) noexcept { return name == "cpu" || is_known(name); }

// The first choice: FASTBLAKE_BACKEND if it names an available backend, else the best one.
// "cpu" and any other name that is no CPU backend's keep the best one and decide only the
// offload (requested_offload): the latter is an accelerator's, refused while no plug-in of
// that name is registered. Why an override was refused is kept in a fixed buffer: this runs
// inside noexcept code.
struct initial_choice {
  const backend* chosen = nullptr;
  // The name is no backend's; backend_override_error() forgets the refusal while a plug-in of
  // that name is registered.
  bool names_an_accelerator = false;
  char override_error[256] = {};
};

const initial_choice& initial() noexcept {
  static const initial_choice c = [] {
    initial_choice r;
    r.chosen = available().list[0];
    const std::string_view name = environment_choice();
    if (name.empty() || name == "cpu") return r;
    const int shown = static_cast<int>(std::min<std::size_t>(name.size(), 40));
    if (const backend* b = find_available_backend(name)) {
      r.chosen = b;
    } else if (is_known(name)) {
      std::snprintf(r.override_error, sizeof r.override_error,
                    "FASTBLAKE_BACKEND=%.*s is not available in this build on this CPU; using "
                    "%.10s",
                    shown, name.data(), r.chosen->name.data());
    } else {
      r.names_an_accelerator = true;
      std::snprintf(r.override_error, sizeof r.override_error,
                    "FASTBLAKE_BACKEND=%.*s is neither a backend (%.*s, cpu) nor a registered "
                    "accelerator's name; using %.10s",
                    shown, name.data(), static_cast<int>(known_names.size()), known_names.data(),
                    r.chosen->name.data());
    }
    return r;
  }();
  return c;
}

std::atomic<const backend*> g_active{nullptr};

}  // namespace

std::span<const backend* const> available_backends() noexcept {
  return {available().list.data(), available().count};
}

const backend* find_available_backend(std::string_view name) noexcept {
  for (const backend* b : available_backends()) {
    if (b->name == name) return b;
  }
  return nullptr;
}

const backend& active_backend() noexcept {
  const backend* b = g_active.load(std::memory_order_acquire);
  if (b != nullptr) return *b;
  const backend* expected = nullptr;
  b = initial().chosen;
  // A concurrent set_active_backend wins over the default choice.
  if (!g_active.compare_exchange_strong(expected, b, std::memory_order_acq_rel)) b = expected;
  return *b;
}

void set_active_backend(const backend& b) noexcept {
  g_active.store(&b, std::memory_order_release);
}

offload_request requested_offload(std::string_view accelerator) noexcept {
  const std::string_view name = environment_choice();
  if (name.empty()) return offload_request::automatic;
  if (names_the_cpu(name)) return offload_request::disabled;
  return accelerator.empty() || name == accelerator ? offload_request::forced
                                                    : offload_request::disabled;
}

}  // namespace fastblake::internal

namespace fastblake {

std::string_view active_backend() noexcept { return internal::active_backend().name; }

std::string_view active_blake2_kernels() noexcept {
  return internal::active_backend().blake2_level;
}

std::vector<std::string_view> available_backends() {
  std::vector<std::string_view> names;
  for (const internal::backend* b : internal::available_backends()) names.push_back(b->name);
  return names;
}

std::string_view backend_override_error() noexcept {
  const internal::initial_choice& c = internal::initial();
  if (c.names_an_accelerator) {
    const auto* plugin = internal::accelerator::current().plugin;
    if (plugin != nullptr && plugin->name == internal::environment_choice()) return {};
  }
  return c.override_error;
}

bool use_backend(std::string_view name) noexcept {
  const internal::backend* b = internal::find_available_backend(name);
  if (b == nullptr) return false;
  internal::set_active_backend(*b);
  return true;
}

std::string_view active_variant() noexcept {
  internal::blake3::variant_selector* v = internal::blake3::active_kernels().variants;
  return v == nullptr ? std::string_view() : v->current().name;
}

std::vector<std::string_view> available_variants() {
  std::vector<std::string_view> names;
  if (const auto* v = internal::blake3::active_kernels().variants) {
    for (const auto& variant : v->variants()) names.push_back(variant.name);
  }
  return names;
}

std::string variant_choice() {
  using basis = internal::blake3::variant_selector::basis;
  internal::blake3::variant_selector* v = internal::blake3::active_kernels().variants;
  if (v == nullptr) return {};
  switch (v->how_chosen()) {
    case basis::environment:
      return "FASTBLAKE_VARIANT";
    case basis::table: {
      const internal::cpu_identity cpu = internal::this_cpu();
      char text[96];
      std::snprintf(text, sizeof text, "the table of measured cores (%s family 0x%X model 0x%X)",
                    cpu.vendor == internal::cpu_vendor::amd ? "AMD" : "Intel", cpu.family,
                    cpu.model);
      return text;
    }
    case basis::measured: {
      std::string text = "measured on this core (";
      for (std::size_t i = 0; i < v->variants().size(); ++i) {
        if (i > 0) text += ", ";
        text += v->variants()[i].name;
        text += ' ';
        text += std::to_string(static_cast<long long>(v->measured_ns()[i] + 0.5));
        text += " ns";
      }
      return text + " for four chunks)";
    }
    case basis::program:
    case basis::undecided:
      break;
  }
  return "use_variant";
}

std::string variant_override_error() {
  const char* env = std::getenv("FASTBLAKE_VARIANT");
  if (env == nullptr || *env == '\0' || std::string_view(env) == "measure") return {};
  const internal::backend& b = internal::active_backend();
  internal::blake3::variant_selector* v = b.blake3->variants;
  if (v != nullptr) {
    v->current();
    if (!v->environment_refused()) return {};
  }
  std::string names;
  for (const std::string_view name : available_variants()) {
    names += names.empty() ? "" : ", ";
    names += name;
  }
  std::string error = "FASTBLAKE_VARIANT=";
  error.append(env, std::min<std::size_t>(std::strlen(env), 40));
  error += v == nullptr ? " names no variant: the " + std::string(b.name) + " backend has one"
                        : " is none of the " + std::string(b.name) + " backend's variants (" +
                              names + "); using " + std::string(v->current().name);
  return error;
}

bool use_variant(std::string_view name) noexcept {
  internal::blake3::variant_selector* v = internal::blake3::active_kernels().variants;
  return v != nullptr && v->choose(name);
}

}  // namespace fastblake

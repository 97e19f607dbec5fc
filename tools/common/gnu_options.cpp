#include "gnu_options.hpp"

#include <cstdlib>
#include <cstring>

namespace tools {

gnu_options::gnu_options(int argc, char** argv, std::string_view short_options,
                         std::span<const long_option> long_options)
    : argc_(argc),
      argv_(argv),
      short_options_(short_options),
      long_options_(long_options),
      in_order_(std::getenv("POSIXLY_CORRECT") != nullptr) {}

int gnu_options::refuse(std::string words) {
  refusal_ = std::move(words);
  return refused;
}

int gnu_options::next() {
  argument_ = nullptr;
  if (in_cluster_ > 0) return short_option();
  while (index_ < argc_) {
    const std::string_view arg = argv_[index_];
    if (options_ended_ || arg.size() < 2 || arg[0] != '-') {
      options_ended_ = options_ended_ || in_order_;
      operands_.emplace_back(arg);
      ++index_;
      continue;
    }
    ++index_;
    if (arg == "--") {
      options_ended_ = true;
      continue;
    }
    if (arg[1] == '-') return long_option_named(arg.substr(2));
    --index_;
    in_cluster_ = 1;
    return short_option();
  }
  return end_of_options;
}

int gnu_options::short_option() {
  const char* cluster = argv_[index_];
  const char c = cluster[in_cluster_++];
  const bool cluster_ends = cluster[in_cluster_] == '\0';
  const std::size_t at = short_options_.find(c);
  const bool known = c != ':' && c != ';' && at != std::string_view::npos;
  const bool takes_argument =
      known && at + 1 < short_options_.size() && short_options_[at + 1] == ':';
  if (!takes_argument && cluster_ends) {
    in_cluster_ = 0;
    ++index_;
  }
  if (!known) return refuse(std::string("invalid option -- '") + c + "'");
  if (!takes_argument) return static_cast<unsigned char>(c);
  // The rest of the cluster is the argument, or else the next word, whatever it looks like.
  const std::size_t rest = in_cluster_;
  in_cluster_ = 0;
  ++index_;
  if (!cluster_ends) {
    argument_ = cluster + rest;
  } else if (index_ < argc_) {
    argument_ = argv_[index_++];
  } else {
    return refuse(std::string("option requires an argument -- '") + c + "'");
  }
  return static_cast<unsigned char>(c);
}

int gnu_options::long_option_named(std::string_view text) {
  const std::size_t equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const long_option* found = nullptr;
  std::vector<const long_option*> candidates;
  bool ambiguous = false;
  for (const long_option& o : long_options_) {
    if (std::string_view(o.name).substr(0, name.size()) != name) continue;
    if (std::strlen(o.name) == name.size()) {  // an exact name wins
      found = &o;
      ambiguous = false;
      break;
    }
    // Prefixes of several options are ambiguous unless they all mean the same; the first and
    // those that differ from it are listed.
    if (found == nullptr) {
      found = &o;
      candidates.push_back(&o);
    } else if (found->takes_argument != o.takes_argument || found->id != o.id) {
      ambiguous = true;
      candidates.push_back(&o);
    }
  }
  if (ambiguous) {
    std::string words = "option '--" + std::string(text) + "' is ambiguous; possibilities:";
    for (const long_option* o : candidates) words += " '--" + std::string(o->name) + "'";
    return refuse(std::move(words));
  }
  if (found == nullptr) return refuse("unrecognized option '--" + std::string(text) + "'");
  if (equals != std::string_view::npos) {
    if (!found->takes_argument) {
      return refuse("option '--" + std::string(found->name) + "' doesn't allow an argument");
    }
    argument_ = text.data() + equals + 1;
  } else if (found->takes_argument) {
    if (index_ >= argc_) {
      return refuse("option '--" + std::string(found->name) + "' requires an argument");
    }
    argument_ = argv_[index_++];
  }
  return found->id;
}

}  // namespace tools

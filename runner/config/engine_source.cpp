#include "runner/config/engine_source.h"

#include <array>
#include <cstdint>
#include <filesystem>

#include "engine/base/int_text.h"

namespace knightly::runner {

namespace {

constexpr std::array<std::string_view, 5> kKeys = {"repo", "ref", "build", "subdir", "bench"};

}  // namespace

std::span<const std::string_view> source_keys() {
  return kKeys;
}

bool is_source_key(std::string_view key) {
  for (auto k : kKeys)
    if (k == key) return true;
  return false;
}

std::optional<std::string> apply_source_key(std::string_view key, std::string_view value,
                                            EngineConfig& e) {
  if (!is_source_key(key)) return "'" + std::string(key) + "' is not a source key";
  EngineSource& s = e.source ? *e.source : e.source.emplace();
  const std::string v(value);
  if (key == "repo") {
    if (v.empty()) return "repo: must not be empty (a path or a URL of a git repository)";
    s.repo = v;
  } else if (key == "ref") {
    if (v.empty()) return "ref: must not be empty (a commit, branch or tag)";
    if (v.front() == '-') return "ref: '" + v + "' starts with '-'";
    s.ref = v;
  } else if (key == "build") {
    if (v.find_first_not_of(" \t") == std::string::npos) return "build: must not be empty";
    if (v.find("{exe}") == std::string::npos)
      return "build: '" + v +
             "' does not say where the program goes: put {exe} where the path belongs "
             "(make -j EXE={exe})";
    s.build = v;
  } else if (key == "subdir") {
    const std::filesystem::path p(v);
    if (p.is_absolute()) return "subdir: '" + v + "' must be a path inside the repository";
    for (const auto& part : p)
      if (part == "..") return "subdir: '" + v + "' must be a path inside the repository";
    s.subdir = v;
  } else {  // bench
    const auto n = base::parse_int("bench", v, 1, INT64_MAX);
    if (!n) return n.error() + " (a node count)";
    s.bench = static_cast<std::uint64_t>(*n);
  }
  return std::nullopt;
}

std::optional<std::string> check_engine_source(const EngineConfig& e) {
  if (!e.source) return std::nullopt;
  const std::string who = e.name.empty() ? std::string("an engine") : "engine '" + e.name + "'";
  if (e.source->repo.empty()) return who + " has ref= but no repo= (the git repository)";
  if (e.source->ref.empty())
    return who + " has repo= but no ref= (the commit, branch or tag to build)";
  if (!e.command.empty())
    return who + " is built from its source (repo=): give no command (cmd=) as well";
  if (e.builtin) return who + " is built from its source (repo=): it cannot be builtin too";
  return std::nullopt;
}

bool is_repository_url(std::string_view repo) {
  if (repo.find("://") != std::string_view::npos) return true;
  // scp-like: [user@]host:path, with no '/' before the ':' (git's own rule).
  const auto colon = repo.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  return repo.substr(0, colon).find('/') == std::string_view::npos;
}

void resolve_source_path(EngineSource& source, const std::string& base_dir) {
  if (source.repo.empty() || is_repository_url(source.repo)) return;
  std::filesystem::path p(source.repo);
  if (p.is_absolute()) return;
  std::error_code ec;
  const std::filesystem::path base =
      base_dir.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(base_dir);
  source.repo = (base / p).lexically_normal().string();
  while (source.repo.size() > 1 && source.repo.back() == '/') source.repo.pop_back();
}

std::string source_engine_name(const EngineSource& source) {
  std::string repo = source.repo;
  while (!repo.empty() && (repo.back() == '/' || repo.back() == '\\')) repo.pop_back();
  const auto cut = repo.find_last_of("/:");
  std::string base = cut == std::string::npos ? repo : repo.substr(cut + 1);
  if (base.ends_with(".git")) base.resize(base.size() - 4);
  if (base.empty()) base = "engine";
  return base + "@" + source.ref;
}

}  // namespace knightly::runner

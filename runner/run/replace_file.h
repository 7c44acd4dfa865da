#pragma once
// A file replaced whole: written beside it under a name no other writer uses (this process's
// id and a serial number), then renamed over it, so a reader sees the old file or the new one,
// never half of one, and two writers at once never write into each other's temporary file.
// The temporary file is removed when anything fails.
#include <expected>
#include <filesystem>
#include <string>
#include <string_view>

namespace knightly::runner {

// Replaces `path` with `text`. The error names the file and why ("cannot write PATH: ...").
std::expected<void, std::string> replace_file(const std::filesystem::path& path,
                                              std::string_view text);

}  // namespace knightly::runner

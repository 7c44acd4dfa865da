#pragma once
// `knightly sprt` as a value: its words parsed into the config of a two-engine SPRT and the
// options of its run, so that `knightly submit` can queue it and `knightly work` can play it
// from the words the queue keeps (runner/cli/cmd_submit.cpp, cmd_work.cpp).
#include <expected>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/output/args.h"
#include "runner/output/run_style.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

struct SprtCommand {
  Config config;
  RunOptions options;
  Presentation presentation;  // `knightly sprt` prints in Knightly's own style
  int max_games = 20000;      // --max-games (the schema's default)
  bool submit = false;        // --submit: queued for `knightly work` instead of played here
  int priority = 0;           // --priority N (submit)
  std::string submitter;      // --submitter NAME (submit; default $USER)
};

// The words after `knightly sprt`; an error message ("sprt: ...") for bad ones.
std::expected<SprtCommand, std::string> parse_sprt_command(Args& args);

// `knightly sprt ... --submit`: adds the test to the queue of the command's database and
// returns at once; `words` are the command's own (the queue keeps them, less --submit, --db,
// --priority and --submitter, with relative paths made absolute). cmd_submit.cpp.
int submit_sprt(const SprtCommand& command, const std::vector<std::string>& words);

// Help (cmd_submit.cpp): the option lines of the queue's options of `knightly sprt` (--submit,
// --priority, --submitter), and the options part of `knightly help submit`.
std::string queue_option_lines();
std::string submit_options();

}  // namespace knightly::runner

#pragma once
// Ctrl-C handling for long runs: the first SIGINT/SIGTERM asks the run to stop starting games
// and finish the running ones; the second ends the process at once (engines die with it, see
// the players' parent-death signal), losing only the games in progress.
namespace knightly::runner {

void install_interrupt_handlers();
bool stop_requested();     // at least one interrupt received
void request_stop();       // as if the first interrupt arrived (SPRT decided, max games...)
void reset_interrupts();   // for tests and for sequential runs in one process

}  // namespace knightly::runner

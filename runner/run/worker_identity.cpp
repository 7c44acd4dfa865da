#include "runner/run/worker_identity.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "db/records/utc_time.h"

namespace knightly::runner {

db::WorkerIdentity this_worker() {
  db::WorkerIdentity w;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  w.host = host[0] ? host : "unknown";
  w.pid = std::int64_t(::getpid());
  w.started_at = db::utc_now_iso_millis();
  return w;
}

bool worker_is_gone(const db::WorkerIdentity& other, const db::WorkerIdentity& me) {
  if (other.host != me.host || other.pid <= 0) return false;
  if (other.pid == me.pid) return other.started_at != me.started_at;
  return ::kill(pid_t(other.pid), 0) != 0 && errno == ESRCH;
}

}  // namespace knightly::runner

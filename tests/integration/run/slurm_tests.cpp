// scripts/slurm/knightly-workers.sbatch on a real single-node Slurm started by the test: a job
// array of three workers plays one tournament to the end against PostgreSQL (the test's own
// server), as it would across machines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "database.h"
#include "slurm_cluster.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"
#include "tests/test_data.h"
#include "worker_process.h"

using namespace knightly::test;

TEST_CASE("a Slurm job array of three workers plays one tournament to the end", "[run][slurm]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  TempDir dir;
  SlurmCluster slurm(dir.file("slurm"));
  if (!slurm.unavailable().empty()) {
    WARN("skipped: " << slurm.unavailable());
    return;
  }
  const int rounds = 10;  // 3 engines: 60 games
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"slurm\"\nrounds = " + std::to_string(rounds) +
                 "\ngames = 2\nseed = 5\nmaxmoves = 40\n[openings]\nrandom_plies = 4\n"
                 "[[engine]]\nname = \"ab\"\nbuiltin = true\n"
                 "options = { Search = \"alphabeta\" }\ndepth = 2\n"
                 "[[engine]]\nname = \"greedy\"\nbuiltin = true\n"
                 "options = { Search = \"greedy\" }\n"
                 "[[engine]]\nname = \"rnd\"\nbuiltin = true\n"
                 "options = { Search = \"random\" }\n");
  const Database db = Database::make(true, "");
  std::string error;
  const std::string job = slurm.submit(
      {"--array=1-3", "--cpus-per-task=1", "--output=" + dir.file("task-%a.out"),
       "--export=ALL,KNIGHTLY_CONFIG=" + dir.file("t.toml") + ",KNIGHTLY_DB=" + db.target +
           ",KNIGHTLY=" + knightly_binary() + ",KNIGHTLY_ARGS=--lease 5",
       source_dir() + "/scripts/slurm/knightly-workers.sbatch"},
      dir.path(), &error);
  INFO(error << slurm.logs());
  REQUIRE(!job.empty());
  REQUIRE(slurm.wait_for(job, 600));
  std::string outputs;
  for (int task = 1; task <= 3; ++task)
    outputs += "== task " + std::to_string(task) + "\n" +
               tail(read_file(dir.file("task-" + std::to_string(task) + ".out"))) + "\n";
  INFO(outputs << slurm.logs());
  // Every task ran the worker to the end: exit 0, the decision in its log.
  auto codes = slurm.exit_codes(job);
  CHECK(codes == std::vector<int>{0, 0, 0});
  for (int task = 1; task <= 3; ++task) {
    const std::string out = read_file(dir.file("task-" + std::to_string(task) + ".out"));
    CHECK(out.find("concurrency 1") != std::string::npos);
    CHECK(out.find("Decision: complete: all 60 games played") != std::string::npos);
  }
  CHECK(db.count("SELECT count(*) FROM games") == rounds * 6);
  CHECK(db.count("SELECT count(DISTINCT schedule_index) FROM games") == rounds * 6);
  CHECK(db.value("SELECT status FROM tournaments WHERE name = 'slurm'") == "finished");
  CHECK(db.integrity() == "ok");
  // Every task that played is a worker; a task that started after the others had played every
  // game (a loaded machine) found nothing to play and registered none.
  int played = 0;
  for (int task = 1; task <= 3; ++task)
    if (read_file(dir.file("task-" + std::to_string(task) + ".out")).find("nothing to play") ==
        std::string::npos)
      ++played;
  CHECK(played >= 1);
  auto workers =
      run_process({knightly_binary(), "query", "workers", "--db", db.target, "--format", "csv"});
  CHECK(std::count(workers.out.begin(), workers.out.end(), '\n') == 1 + played);
}

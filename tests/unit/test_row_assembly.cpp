// Row assembly (constraint/row_assembly.hpp): offsets from exclusive scans of per-source counts,
// sources filling their rows in parallel. The parallel scan against the serial definition, and the
// assembled structure (kinds, sources, entries) the same on the parallel and the serial path.
#include <catch2/catch.hpp>

#include <numeric>
#include <random>

#include "constraint/row_assembly.hpp"
#include "core/parallel.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_scenes.hpp"

namespace {

// Forces the parallel code paths for the scope (restored after).
struct ForceParallel {
  int saved = sim::parallel_threshold();
  ForceParallel() { sim::parallel_threshold() = 1; }
  ~ForceParallel() { sim::parallel_threshold() = saved; }
};

}  // namespace

TEST_CASE("exclusive_scan_counts gives the offsets of the counts on the serial and the parallel path", "[unit][rows]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> count(0, 6);
  for (int n : {0, 1, 5, 511, 512, 513, 10000}) {
    std::vector<int> counts(n + 1);
    for (int i = 0; i < n; ++i) counts[i] = count(rng);
    std::vector<int> expected(n + 1, 0);
    for (int i = 0; i < n; ++i) expected[i + 1] = expected[i] + counts[i];
    std::vector<int> serial = counts;
    sim::exclusive_scan_counts(serial, n);
    std::vector<int> parallel = counts;
    {
      ForceParallel force;
      sim::exclusive_scan_counts(parallel, n);
    }
    INFO("n = " << n);
    CHECK(serial == expected);
    CHECK(parallel == expected);
  }
}

TEST_CASE("rows assembled in parallel equal the serial assembly (cloth, workcell, table_pile)", "[unit][rows]") {
  for (const char* name : {"cloth", "workcell", "table_pile"}) {
    INFO(name);
    auto loaded = sim::load_scene_file(test::scene_path(name));
    REQUIRE(loaded.ok());
    const sim::Model model = test::compile(*loaded);
    sim::State state = sim::make_initial_state(model);
    sim::Workspace ws;
    test::run_steps(model, state, sim::make_initial_control(model), ws, 30);  // contacts from a few steps on
    const sim::ContactBuffer& contacts = ws.contacts;
    sim::RowSet serial, parallel;
    sim::assemble_rows(model, contacts, serial);
    {
      ForceParallel force;
      sim::assemble_rows(model, contacts, parallel);
    }
    REQUIRE(serial.count == parallel.count);
    CHECK(serial.count == serial.first_friction + 2 * contacts.size());
    CHECK(serial.row_kind == parallel.row_kind);
    CHECK(serial.row_source == parallel.row_source);
    CHECK(serial.row_sub == parallel.row_sub);
    CHECK(serial.row_compliance == parallel.row_compliance);
    CHECK(serial.row_entry_first == parallel.row_entry_first);
    CHECK(serial.entry_node == parallel.entry_node);
    CHECK(serial.entry_row == parallel.entry_row);
    // Every row's entries are its movable nodes, each with its own dofs.
    for (int r = 0; r < serial.count; ++r) {
      const sim::RowNodes nodes = sim::row_nodes(model, contacts, serial, r);
      REQUIRE(serial.row_entry_first[r + 1] - serial.row_entry_first[r] == nodes.entries());
      int e = serial.row_entry_first[r];
      for (int k = 0; k < nodes.slots; ++k) {
        if (nodes.node[k] < 0) continue;
        CHECK(serial.entry_node[e] == nodes.node[k]);
        CHECK(serial.entry_dof[e] == sim::node_dof(model, nodes.node[k]));
        CHECK(serial.entry_row[e] == r);
        ++e;
      }
    }
  }
}

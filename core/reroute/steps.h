// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The strategies of an SL-stable re-route (docs/rerouting.md, issue 16),
// each one function with a typed outcome; the pipeline
// (core/pipeline/reroute_stage.cc) runs them in order and is the only code
// that routes the engine again. None of them calls an engine.
//
//  0. without_engine: no switch or LID is new (per-source-switch SLs): the
//     incremental route alone (core/reroute/incremental.h) from no guide
//     tables, taken when it keeps every SL.
//  R. repair: the engine could not route and handed out guide LFTs
//     (EngineReport::repair_only): the previous routing repaired with them,
//     taken when it keeps every SL.
//  1. (in the engine: typed hints, core/engine/hints.h: keiro-nue keeps
//     surviving destinations in their layer, the others realize with pins.)
//  1b. rename: compare the new SLs with the previous ones and rename SLs
//     (best_sl_renaming, core/reroute/previous_sls.h) so that as many
//     surviving pairs as possible keep theirs; done when every one does.
//  1c. incremental: the incremental route from the engine's LFTs, checked,
//     taken when it keeps every SL. (When the engine routed without pins for
//     it and it fails, the pipeline routes again with pins and repeats 1b.)
//  2. previous_sls: the new tables with every surviving pair on its old SL,
//     checked.
//  2a. relaxed: the incremental route once more, relaxed: the broken paths
//     that keep no SL take another one (option drop_stale_sls drops their
//     stale traffic); taken when fewer pairs change than with the fresh SLs.
//  2b. bisect: destination ranges of the changed ones with their old SLs on
//     top of those accepted so far, checked; at most kMaxKeepChecks checks,
//     none beyond kGiveUpChecks while no range was accepted.
//  3. changed: the pairs left with a new SL counted in one WARN line.
// Option keep_sls=0 skips 1 to 2b (the WARN line still counts).
//
// Cost: each step at most one incremental route and one self-check (2b:
// up to kMaxKeepChecks checks); compare/rename O(S * L).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/log.h"
#include "core/reroute/previous_sls.h"
#include "core/routing.h"

namespace keiro::reroute {

inline constexpr int kMaxKeepChecks = 256;
inline constexpr int kGiveUpChecks = 16;

// What the steps read: the fabric, the previous routing and the settings.
struct Context {
  const Fabric &fabric;
  const PreviousSls &prev;
  Logger &log;
  const char *engine = "";  // OpenSM name, for the log lines
  int max_vls = 1, max_sls = 16, threads = 0;
  bool keep_sls = true;        // option keep_sls
  bool incremental = true;     // option incremental
  bool drop_stale_sls = true;  // option drop_stale_sls
};

// What the re-route did, typed; core/pipeline/report.cc writes it as
// facts. -1 / empty: not reached.
struct Result {
  int64_t previous_pairs = -1;                               // surviving pairs compared
  int64_t fresh_sls_changed = -1, renamed_sls_changed = -1;  // when renamed
  int incremental = -1;                                      // 1c or 0: 1 taken, 0 not
  double incremental_seconds = 0;
  bool lft_counts = false;  // an incremental route was taken: its LFT counts
  int64_t kept_lft_entries = 0, repaired_lft_entries = 0, changed_paths = 0;
  int64_t sls_changed = -1;
  std::string sls_kept;  // yes | partly | no | off
  int keep_checks = -1;
  bool incremental_relaxed = false;
  int64_t sl_changed_paths = -1;
  bool stale = false;  // stale-SL counts of the relaxed route
  int64_t stale_sls_dropped = 0, stale_sls_delivered = 0, stale_sls_unsafe = 0;
  bool repaired_previous = false;
  bool routed_afresh = true;  // false: step 0 took the incremental route alone
  // A self-check of the tables handed out that the pipeline need not repeat
  // (the incremental route's, with the self-check's options).
  std::shared_ptr<const check::Result> checked;
};

// State the steps share after the engine routed.
struct Cascade {
  SlComparison cmp;  // the engine's SLs (renamed) against the previous ones
  int checks = 0;    // self-checks run by the steps
  bool try_incremental = false;
  std::string why;               // why the SLs changed, for the WARN line
  bool previous_failed = false;  // step 2 checked the previous SLs and they failed
};

// Whether the pipeline may let an engine hand out guide tables instead of
// failing, and route it without pins first: a previous per-source-switch
// routing with its tables, keep_sls and incremental on.
bool can_repair(const Context &c);

bool without_engine(const Context &c, Routing &out, Result &res);
// guide: the engine's guide LFTs; engine_why: why it could not route. On
// failure error says why the repair failed too.
bool repair(const Context &c, const std::string &engine_why, Routing &out, Result &res,
            std::string &error);
// Prepares st (comparison; whether 1c may run, with its INFO line when too
// many LIDs are new) and runs 1b; true when every surviving pair keeps its SL.
bool start(const Context &c, Routing &out, Cascade &st, Result &res);
bool rename(const Context &c, Routing &out, Cascade &st, Result &res);
bool incremental(const Context &c, Routing &out, Cascade &st, Result &res);
bool previous_sls(const Context &c, Routing &out, Cascade &st, Result &res);
bool relaxed(const Context &c, Routing &out, Cascade &st, Result &res);
bool bisect(const Context &c, Routing &out, Cascade &st, Result &res);
void changed(const Context &c, const Cascade &st, Result &res);

}  // namespace keiro::reroute

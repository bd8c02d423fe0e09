// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro simulate's model: packet-level traffic through exactly the tables a
// Routing holds (LFTs, path SLs, SL2VL), with credit-based flow control.
//
// The model (time-stepped; one cycle = the time a link takes for one 64-byte
// credit):
//  - A packet of B bytes occupies ceil(B / 64) credits (len). Messages are cut
//    into packets of at most Config::mtu bytes (default 2048 = 32 credits).
//  - Forwarding: at switch u a packet for destination LID d leaves on port
//    Routing::out_port(u, d). Its VL on the first hop (terminal -> switch) is
//    Routing::terminal_vl(src, SL), on a switch hop Routing::vl(u, in port,
//    out port, SL), with SL the path SL (SourceLidSls when given, else
//    Routing::path_sl(source switch, d); an unknown SL takes Config::assume_sl).
//    The destination LID is one of the destination terminal's LIDs (see
//    Config::use_lmc).
//  - Buffers: one per (switch input port, VL), Config::buffer_credits credits
//    each (default 64 = 4 KiB). A packet is sent on a link only when the
//    downstream buffer of its VL has room for the whole packet (virtual
//    cut-through); its credits are taken at grant and given back upstream
//    when its tail has left the upstream buffer (grant + len cycles).
//  - Timing: a granted packet holds the output link and its input port for len
//    cycles; its header reaches the next switch 1 cycle after the grant and is
//    routable switch_latency cycles later. Zero-load latency over h switches:
//    h * (1 + switch_latency) + len cycles (from creation to tail delivery).
//  - Arbitration: each free output port serves, round robin over (input port,
//    VL) slots starting after the last one served, the first buffer whose head
//    packet is routable, wants this port and fits downstream. An input port
//    sends one packet at a time.
//  - Terminals keep a capped source queue (Config::source_queue packets;
//    arrivals beyond it are counted as refused) and sink at line rate. With
//    per-VL source queues (Config::vl_source_queues, the default) a terminal
//    injects, when its link is free, the first queued packet of the first VL
//    (in queue order) whose buffer at the switch has room for it, so a packet
//    blocked on one VL does not hold packets on other VLs (an HCA's send
//    queues on several SLs); packets of one VL keep their order. false: one
//    FIFO, only its head may go.
//  - Shift all-to-all (Traffic::kAlltoall): phase k = 1 .. T-1 of terminal t
//    sends one message to t + k and receives one from t - k (mod T). How a
//    terminal moves between phases: see AlltoallSync (default: pairwise
//    exchange, one phase at a time). A message has arrived when its last
//    packet's tail has; the run ends when the last tail has arrived.
//  - Deadlock: a cycle of (channel, VL) buffers in which each head packet
//    waits for room in the next buffer of the cycle: the next buffer's
//    credits minus the packets queued in it (credits still on their way back
//    count as room) are fewer than the head needs. No packet of such a cycle
//    can ever move. The wait-for graph (one edge per blocked head) only gains
//    an edge when a packet enters a buffer or a new head is exposed by a
//    grant or a drop, so the cycle is looked for at exactly those moments
//    (a walk along the edges from that buffer, only when the buffer is full
//    for its largest packet) and found in the cycle it closes; the end of
//    every run looks once more over all buffers. The run goes on after a
//    deadlock (the rest of the fabric may still deliver); Result names the
//    first cycle ("switch port P VL v" per buffer, by the channel's source
//    switch and port as keiro check names credit loops), the cycle it
//    closed, the packets in its buffers then and the packets delivered
//    after it.
//  - Stall: packets in switch buffers and nothing moved (no grant, injection
//    or drop) for Config::stall_cycles ends the run. With a deadlock found
//    that is the whole fabric locked up behind it; without one it is a stall,
//    a verdict of its own and never a deadlock. A fabric without a cycle
//    moves again within min_stall_cycles() (a header's hop plus the switch
//    latency plus a packet), so a stall means stall_cycles was set below
//    that (the default never is) or a flaw in the model.
//  - Multicast (Config::groups, Config::trees; IBA 18.2.4.3.3): a packet to a
//    group carries its MLID and the group's SL (the lowest of Group::sl_mask)
//    and is routable like a unicast one. At switch u it is replicated to
//    every port of the tree's mask for u except the port it came in on; the
//    VL of the copy on port o is Routing::vl(u, in port, o, SL), on the first
//    hop Routing::terminal_vl(src, SL), exactly as for unicast. Port 0 (a
//    member switch) takes its copy on arrival (no flow control modelled);
//    a copy on a port without a link, on VL 15 or a VL beyond the table's,
//    or at a switch without an entry for the MLID is dropped (counted in
//    Result::mcast_dropped, not in packets_dropped). Replication (the IB
//    switch behaviour): the packet stays at the head of its input buffer
//    with the set of its outputs still to serve; each output arbitrates for
//    it on its own, as for a unicast head, and sends its copy when the
//    copy's downstream buffer has room for the whole packet (a copy to a CA
//    needs no credit). Copies granted in the same cycle leave together (one
//    read of the buffer, fanned out by the crossbar); a copy granted later
//    reads the packet again, holding the input port for len cycles as a
//    unicast grant does. The packet leaves the buffer, and its credits go
//    back upstream len cycles later, when its last copy has been sent. So
//    a multicast head holds its buffer until every copy has credit: in the
//    wait-for graph it waits for every buffer of a pending copy that is
//    full for it (an AND wait: any one of them blocked for good blocks it
//    for good), and the deadlock search below follows all those edges.
//  - Storm: through masks without a loop the copies of one injected packet
//    (its lineage) cross each channel at most once (one path from the source
//    to each switch). A copy sent on a channel its lineage has crossed before
//    means the masks hold a loop: its copies go round it for ever. The first
//    such copy is the storm (Result::storm: cycle, MLID, channel), a verdict
//    of its own, seen after one lap of the loop. The copies keep circulating
//    as in a fabric (IB multicast has no hop limit; unicast packets keep
//    kHopLimit, 64); each copy sent again on a channel its lineage crossed
//    counts in storm_copies, which grows with the run. Lineages are tracked
//    until the first storm (after it, new packets are not): per packet in
//    flight, the channels its copies crossed (one hash-set entry each, freed
//    with its last copy). A finished run (alltoall, messages) with a storm
//    ends stall_cycles after it was seen.
//  - Throughput with multicast is counted where data arrives: a copy
//    delivered to a CA counts like a unicast packet (throughput, latency
//    from the packet's creation, packets_delivered), and a multicast
//    packet offers one copy per member CA other than its source (offered).
//    A group's packets are sent by its member CAs only (a CA's messages go
//    to one of its groups, drawn at random when it is in several).
// Defaults (InfiniBand-like, 4x EDR): 12.5 GB/s per direction -> 5.12 ns per
// cycle; switch latency 100 ns -> 20 cycles; 4 KiB per (port, VL); MTU 2048.
// Left out: wire propagation delay, flit-level pipelining inside a packet
// (credits return per packet, not per flit), VL arbitration tables (high/low
// priority weights: plain round robin), separate queues per destination or
// QP within a VL (messages of one VL leave in order; a message's packets are
// not interleaved with another's of the same VL), end-to-end ACKs (a
// message counts as sent when it has arrived), MPI software overheads,
// link-level retries, adaptive choice among LMC paths, switch-sourced
// (management) traffic, output queueing inside switches.
//
// Event-driven: an output port is arbitrated only in cycles where it may
// grant (woken when its link frees, a head packet for it becomes routable,
// the input port of such a head frees, or credits come back to the buffer it
// feeds), visiting only the slots whose head wants it (a bit set per output)
// in the round-robin order above; a terminal tries to inject only when its
// link frees, a packet joins its queue or credits come back. Cycles where
// nothing is scheduled are skipped (except under rate traffic, which draws
// random numbers for every terminal in every cycle). The results are those
// of scanning every port in every cycle, bit for bit.
//
// Cost (Memory, 64-bit): per (input port, VL) buffer 25 bytes (16 + 9 for
// the deadlock search); per input port / output id (a channel or a terminal)
// 64 bytes, plus per output 8 bytes per 64 (input port, VL) slots of its
// switch; per terminal 48 bytes; per packet 40 bytes. The packet pool holds
// full source queues (64 packets) plus every buffer full of the smallest
// packets, sized once (a 10x10x10 torus with 4 CAs per switch and 8 VLs:
// 80,000 buffers, 420,000 packets, about 21 MB in all, plus the routing's
// own tables). Pairwise all-to-all adds 2 bits per (terminal, phase): 4 MB
// for 4,000 terminals, and the source queues hold window x packets per
// message. Time per simulated cycle O(events): per grant O(1) events and,
// when the buffer it leaves or enters is full for an MTU packet, a walk
// along the blocked heads from there (O(that chain), the buffers at most);
// each woken output O(slots wanting it / 64 + those slots), a sort of the
// woken outputs; a multicast arrival O(ports of its mask) and its head
// O(pending copies) per change, and with groups the walk becomes a
// depth-first search over the heads' edges (O(buffers + edges) at most);
// rate traffic adds O(T) per cycle for the arrivals; the pairwise
// all-to-all O(log m) per message (m messages in flight). Nothing
// is allocated in the loop beyond the event lists' growth.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/mcast/group.h"
#include "core/routing.h"

namespace keiro::sim {

enum class Traffic : uint8_t {
  kUniform,
  kTranspose,
  kBitrev,
  kShuffle,
  kReverse,
  kHotspot,
  kAlltoall,
  kBroadcast,  // every member CA of a group sends to its groups; others are silent
  // Config::fixed_dest: terminal t sends to fixed_dest[t] (-1: silent;
  // -2 - g: to group g of Config::groups)
  kFixed
};
// "uniform" ... "alltoall", "broadcast"; false for another name.
bool parse_traffic(const std::string &name, Traffic &t);
const char *traffic_name(Traffic t);

// The destination of terminal i (of n) under a permutation (transpose: rotate
// the b-bit index by floor(b/2); bitrev: reverse the b bits; shuffle: rotate
// left by 1; reverse: n-1-i), b = bits of n-1. For n not a power of two the
// bit permutation is applied again while the result is >= n (cycle walking:
// still a permutation of 0..n-1). Returns i itself when it maps to itself.
int32_t permutation_dest(Traffic t, int32_t i, int32_t n);

// How the terminals of Traffic::kAlltoall move from one shift (phase) to the
// next. Phase k (1 <= k < T) of terminal t sends one message to t + k and
// receives one from t - k (mod T).
enum class AlltoallSync : uint8_t {
  // Phase k + 1 is queued as soon as phase k's last packet has left the
  // source queue; nothing waits for arrivals. This is how the Nue paper's
  // simulator (Mellanox's OMNeT++ IB flit model) runs its exchange pattern:
  // each terminal's generator walks its destination list on its own.
  kFree,
  // MPI pairwise exchange with a window of W = Config::alltoall_window
  // phases: phase k is complete at t when t's message to t + k and the
  // message from t - k have arrived (tails delivered); t starts phase k
  // once phases 1 .. k - W are complete at t. W = 1 is MPI_Sendrecv per
  // phase; W > 1 keeps W messages in flight as several QPs do.
  kPairwise
};

struct Message {  // for Config::messages
  int64_t time = 0;
  int32_t src = 0, dst = 0;
  int32_t bytes = 2048;
  int32_t group = -1;  // >= 0: to group `group` of Config::groups (dst unused)
};

struct Config {
  Traffic traffic = Traffic::kUniform;
  double load = 1.0;    // offered load, fraction of injection bandwidth
  int32_t size = 2048;  // bytes per message (packets of mtu)
  int32_t mtu = 2048;
  uint64_t seed = 1;
  int64_t warmup = 2000, measure = 10000;  // cycles
  // Nothing moved this long (cycles) with packets in the switches: the run
  // ends (a deadlock if one was found, else a stall). 0: the default,
  // max(5000, min_stall_cycles()).
  int64_t stall_cycles = 0;
  int32_t buffer_credits = 64;  // per (input port, VL)
  int32_t switch_latency = 20;  // cycles
  double link_gbytes = 12.5;    // GB/s per direction (cycle = 64 B)
  int32_t source_queue = 64;    // packets per terminal
  // Per-VL source queues: a terminal injects the first packet (in queue
  // order) of the first VL whose buffer at its switch has room, so a packet
  // blocked on one VL does not hold the others (packets of one VL keep their
  // order). false: one FIFO, only its head may go.
  bool vl_source_queues = true;
  AlltoallSync alltoall_sync = AlltoallSync::kPairwise;
  int32_t alltoall_window = 1;    // phases in flight per terminal (kPairwise)
  int32_t hotspot = 0;            // hotspot terminal
  double hotspot_fraction = 0.2;  // packets sent to it under kHotspot
  int assume_sl = 0;              // for pairs with an unknown path SL
  // Destination LID of a message: with LMC > 0, one of the destination's
  // 2^LMC LIDs (random per message for rate traffic, source index modulo
  // 2^LMC for alltoall and Config::messages); false: the base LID only.
  bool use_lmc = true;
  std::vector<int32_t> fixed_dest;  // Traffic::kFixed
  std::vector<Message> messages;    // sent in addition, at their times
  const check::SourceLidSls *source_sls = nullptr;
  // Multicast (see the model): the groups and their trees (forwarding
  // masks, matched by MLID; a group without a tree is dropped at its
  // source's switch). Both must outlive simulate(). nullptr or empty: none.
  const std::vector<mcast::Group> *groups = nullptr;
  const std::vector<mcast::Tree> *trees = nullptr;
  // Rate traffic other than kBroadcast: the fraction of a member CA's
  // messages that go to one of its groups instead of the pattern's
  // destination (0: none; kBroadcast is 1 for members).
  double mcast_rate = 0;
  // Called about every 4,096 cycles with (done, total): cycles of the run
  // for rate traffic, packets delivered for alltoall and messages. For a
  // progress line only; it cannot change the result.
  std::function<void(int64_t, int64_t)> progress;
  double cycle_ns() const { return 64.0 / link_gbytes; }
};

// The longest a fabric without a deadlock can go without any move: a header's
// hop (1 cycle), the switch latency and an MTU packet's credits. A shorter
// Config::stall_cycles can call a moving fabric stalled.
int64_t min_stall_cycles(const Config &c);
// Config::stall_cycles, or its default when 0.
int64_t stall_cycles(const Config &c);

struct Result {
  double throughput = 0;  // accepted, fraction of injection bandwidth (all terminals)
  double offered = 0;     // generated in the window, same unit (refused messages included)
  // The same divided among the active sources only: terminals that send
  // under the pattern (a permutation's fixed points and kFixed's -1 do not;
  // under uniform, hotspot and alltoall every terminal does) or send one of
  // Config::messages. Equal to throughput when every terminal sends.
  int32_t active_sources = 0;
  double throughput_per_source = 0, offered_per_source = 0;
  double latency_avg = 0, latency_p99 = 0, latency_max = 0;  // cycles
  int64_t packets_delivered = 0;                             // in the measurement window
  int64_t packets_measured = 0;  // of them created in the window (latency sample)
  int64_t packets_dropped = 0;   // routing errors (no port, VL 15, hop limit)
  int64_t packets_refused = 0;   // source queue full
  int64_t cycles = 0;            // simulated
  int vls = 1;                   // VLs modelled (highest VL the tables use + 1)
  bool completed = false;        // alltoall / messages: everything delivered
  // Deadlock (see the model above): the first cycle found.
  bool deadlock = false;
  int64_t deadlock_at = 0;                  // cycle in which it closed
  int64_t deadlock_packets = 0;             // packets in its buffers then
  std::vector<std::string> deadlock_cycle;  // "switch port P VL v" per buffer
  int32_t deadlocks = 0;                    // disjoint cycles found in the run
  int64_t delivered_after_deadlock = 0;     // packets delivered after deadlock_at
  // Stall without a deadlock: nothing moved from stall_since to stall_at.
  bool stall = false;
  int64_t stall_since = 0, stall_at = 0;
  int64_t packets_stuck = 0;              // in switch buffers at the end of a run with either
  std::vector<double> source_throughput;  // per terminal, accepted
  std::string first_drop;                 // why the first packet was dropped
  // Multicast (Config::groups), whole run. Without a storm every injected
  // packet's copies reach each member CA but its source exactly once, so
  // mcast_delivered == mcast_expected once all have arrived.
  int64_t mcast_sent = 0;        // multicast packets injected
  int64_t mcast_expected = 0;    // member CAs other than the source, summed over them
  int64_t mcast_delivered = 0;   // copies delivered to member CAs
  int64_t mcast_non_member = 0;  // copies delivered to CAs not in the group
  int64_t mcast_switch = 0;      // copies taken by member switches (port 0)
  int64_t mcast_dropped = 0;     // copies dropped (no entry, no link, VL 15)
  double mcast_offered = 0, mcast_throughput = 0;  // the multicast part of offered / throughput
  std::vector<int64_t> mcast_received;             // per terminal: copies it got
  std::string first_mcast_drop;
  // Storm: a copy's path through the masks went round a loop (see the model).
  bool storm = false;
  int64_t storm_at = 0;      // cycle the first copy made S hops
  uint16_t storm_mlid = 0;   // its group
  int64_t storm_copies = 0;  // arrivals after S hops or more in the run
  std::string storm_what;    // one line: group, source, where
};

// Runs the simulation. f finalized, r sized for f. Deterministic: the same
// inputs and seed give the same Result.
Result simulate(const Fabric &f, const Routing &r, const Config &c);

// --- Load sweeps (keiro simulate --sweep) ---
// A sweep runs rate traffic (not alltoall / messages) once per offered load,
// each run as simulate() with Config::load set and everything else (seed
// included) unchanged, in increasing load order. A deadlock, a stall or a
// multicast storm ends the sweep: that point is the last one.
//
// Saturation (as in Dally & Towles, "Principles and Practices of
// Interconnection Networks", 23.1, and Booksim's load sweeps): below
// saturation the accepted throughput follows the offered load; past it the
// accepted throughput stays flat and latency grows with the run's length.
//  - saturation load: the offered load (Config::load) of the first point
//    whose accepted throughput is below kSaturationRatio times its measured
//    offered throughput (Result::offered, refused messages included, so
//    terminals that send nothing under a permutation do not count), or of
//    the deadlocked / stalled point; -1 when every point kept up.
//  - saturation throughput: the plateau, the median accepted throughput of
//    the points from the saturation load on that neither deadlocked nor
//    stalled (the mean of the middle two for an even count); -1 when there
//    is none (never saturated, or the first saturated point deadlocked).
//    The median ignores a single noisy point, where the maximum picks it.
//  - saturation_throughput_max: the highest accepted throughput of the points
//    that neither deadlocked nor stalled (0 when there is none), the figure
//    papers that take "the highest accepted traffic" report.
constexpr double kSaturationRatio = 0.95;

struct SweepPoint {
  double load = 0;
  Result result;
};

struct Sweep {
  std::vector<SweepPoint> points;
  double saturation_throughput = -1;             // plateau (median), -1: none
  double saturation_throughput_per_source = -1;  // the same per active source
  int plateau_points = 0;                        // points in the median
  double saturation_throughput_max = 0;
  double saturation_load = -1;
  bool deadlock = false;  // the last point deadlocked
  bool stall = false;     // the last point stalled
  bool storm = false;     // the last point had a multicast storm
};

// lo, lo + step, ... up to hi (within step / 1000), rounded to 1e-9; empty
// when lo > hi or step <= 0.
std::vector<double> sweep_loads(double lo, double hi, double step);

// Runs c at each of loads (increasing). progress(i, n) is called before
// point i of n (and c.progress inside each run). Time: sum of the runs.
Sweep sweep(const Fabric &f, const Routing &r, const Config &c, const std::vector<double> &loads,
            const std::function<void(size_t, size_t)> &progress = {});

}  // namespace keiro::sim

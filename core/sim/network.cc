// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/sim/network.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "core/enum_names.h"
#include "core/log.h"
#include "core/topo/rng.h"

namespace keiro::sim {

namespace {

constexpr int32_t kNone = -1;
constexpr int32_t kDrop = -2;
constexpr int32_t kMulti = -3;  // Packet::out of a multicast packet with copies to send
constexpr int32_t kSpent = -4;  // a multicast packet with nothing (left) to send: removed
constexpr int kHopLimit = 64;
constexpr size_t kHistSize = size_t{1} << 16;

struct Packet {
  int64_t created = 0;
  int64_t ready = 0;  // routable at its current switch from this cycle
  int32_t next = kNone;
  int32_t src = 0, dst = 0;  // terminals
  int32_t out = kNone;       // output id wanted at the current switch, kDrop
  uint16_t dlid = 0;         // one of the destination's LIDs (LMC)
  int16_t len = 1;           // credits
  uint8_t sl = 0, out_vl = 0;
  uint8_t hops = 0;
  uint8_t flags = 0;  // kLastOfMessage, kAlltoall, kMcast (dst: the group's index)
};
constexpr uint8_t kLastOfMessage = 1, kAlltoall = 2, kMcast = 4;

struct Buffer {
  int32_t head = kNone, tail = kNone;
  int32_t free = 0;    // credits
  int32_t queued = 0;  // credits of the packets in it
};

struct InPort {
  int64_t busy_until = 0;
  int32_t release_buf = kNone, release_len = 0;
  int32_t fan_id = kNone;  // the multicast packet whose copies it is sending
};

// A group as the simulator uses it.
struct McGroup {
  uint16_t mlid = 0;
  uint8_t sl = 0;
  const mcast::Tree *tree = nullptr;
  std::vector<int32_t> members;  // terminals
};

int bits_for(int32_t n) {
  int b = 0;
  while ((int64_t{1} << b) < n) ++b;
  return b;
}

uint32_t rotl(uint32_t x, int k, int b) {
  if (b == 0) return x;
  k %= b;
  const uint32_t mask = (b >= 32) ? ~0u : ((1u << b) - 1);
  return ((x << k) | (x >> (b - k))) & mask;
}

uint32_t bit_perm(Traffic t, uint32_t x, int b) {
  switch (t) {
    case Traffic::kTranspose:
      return rotl(x, b / 2, b);
    case Traffic::kShuffle:
      return rotl(x, 1, b);
    case Traffic::kBitrev: {
      uint32_t y = 0;
      for (int i = 0; i < b; ++i)
        if (x & (1u << i)) y |= 1u << (b - 1 - i);
      return y;
    }
    default:
      return x;
  }
}

class Sim {
 public:
  Sim(const Fabric &f, const Routing &r, const Config &c) : f_(f), r_(r), c_(c), rng_(c.seed) {}
  Result run();

 private:
  void setup();
  // setup()'s parts. Per switch its input and output lists and port_out_.
  void setup_ports();
  // The arbiters' indexes (out_pos_, pos_sw_, in_slot_, want_word_) and
  // their want bits; after setup_ports() and with ni_ and V_ set.
  void setup_arbiters();
  // Message sizes, the sorted messages, the source queue capacity and the
  // packet pool: full source queues plus every buffer full of the smallest
  // packets.
  void setup_packets();
  // The all-to-all counters and the pairwise exchange's state.
  void setup_alltoall();
  void finish(int64_t now);
  int count_vls() const;
  int32_t count_active_sources() const;
  uint8_t path_sl(int32_t src, uint16_t dlid) const;
  void route(int32_t id, int32_t sw, uint8_t in_port);
  // Multicast (see the header): the copies packet id makes at switch sw.
  void setup_mcast();
  void route_mc(int32_t id, int32_t sw, uint8_t in_port);
  void drop_copy(const Packet &p, int32_t sw, const std::string &why);
  void note_storm(const Packet &p, int32_t c);
  // Lineages: the copies of one injected multicast packet and the channels
  // they crossed (a hash set of (lineage, channel)), freed with its last
  // copy. Only while no storm has been seen.
  struct Lineage {
    int32_t live = 0;  // packets of it in switch buffers
    std::vector<int32_t> chans;
  };
  int32_t new_lineage();
  void end_copy(int32_t id);  // packet id of a lineage leaves the switches
  std::vector<Lineage> lin_;
  std::vector<int32_t> lin_free_;
  std::unordered_set<uint64_t> crossed_;
  static uint64_t lin_key(int32_t l, int32_t c) {
    return static_cast<uint64_t>(l) << 32 | static_cast<uint32_t>(c);
  }
  bool grant_copy(int64_t now, int32_t s, int32_t o, int32_t k, int32_t in, int32_t b);
  void deliver_copy(const Packet &p, int32_t term, int64_t done);
  int32_t fanout(int32_t g, int32_t src) const {
    return static_cast<int32_t>(mg_[g].members.size()) -
           (member_[static_cast<size_t>(g) * T_ + src] ? 1 : 0);
  }
  // The group terminal t sends a multicast message to, drawing when it has
  // several; kNone when it is in none.
  int32_t pick_group(int32_t t);
  void generate_mcast(int32_t t, int32_t g, int64_t now);  // a rate-traffic message to group g
  uint8_t in_port_of(int32_t in) const {
    return in < C_ ? f_.channel(in).dst_port : f_.terminal(in - C_).sw_port;
  }
  int32_t sw_of(int32_t in) const { return in < C_ ? f_.channel(in).dst : f_.terminal(in - C_).sw; }
  uint8_t out_port_of(int32_t o) const {
    return o < C_ ? f_.channel(o).src_port : f_.terminal(o - C_).sw_port;
  }
  // Calls fn(output id) for every output the head of b wants.
  template <class Fn>
  void for_each_out(int32_t b, int32_t id, Fn fn) const {
    const Packet &p = pk_[id];
    if (p.out >= 0) return fn(p.out);
    if (p.out != kMulti) return;
    const int32_t ps = port_start_[sw_of(b / V_)];
    const mcast::PortMask &m = mc_pending_[id];
    for (size_t q = m._Find_first(); q < m.size(); q = m._Find_next(q)) fn(port_out_[ps + q]);
  }
  // The want bits of b's head, and waking the outputs it wants (from cycle
  // t, or when it becomes routable). Unicast heads inline, multicast ones
  // in the *_mc functions.
  void want_head(int32_t b, bool on) {
    const int32_t id = buf_[b].head;
    if (id == kNone) return;
    const int32_t o = pk_[id].out;
    if (o >= 0) {
      want_[o] += on ? 1 : -1;
      set_want(b, o, on);
    } else if (o == kMulti) {
      want_mc(b, id, on);
    }
  }
  void wake_head(int32_t b, int64_t t) {
    const int32_t id = buf_[b].head;
    if (id == kNone) return;
    const Packet &p = pk_[id];
    if (p.out >= 0)
      wake_out(p.out, std::max(t, p.ready));
    else if (p.out == kMulti)
      wake_mc(b, id, std::max(t, p.ready));
  }
  void want_mc(int32_t b, int32_t id, bool on);
  void wake_mc(int32_t b, int32_t id, int64_t t);
  bool mc_on_ = false;
  std::vector<McGroup> mg_;
  std::vector<int32_t> mg_by_mlid_;              // MLID - 0xC000 -> group, kNone
  std::vector<std::vector<int32_t>> groups_of_;  // per terminal: its groups
  std::vector<uint8_t> member_;                  // [group * T + terminal]
  std::vector<mcast::PortMask> mc_pending_;      // per packet: ports still to serve
  std::vector<int32_t> mc_lin_;                  // per packet: its lineage or kNone
  int64_t mc_credits_ = 0, mc_generated_ = 0;    // multicast part of delivered / generated
  void push(int32_t b, int32_t id);
  int32_t pop(int32_t b);
  // lid_offset: which of the destination's 2^LMC LIDs (taken modulo).
  // group >= 0: to that group (dst unused).
  bool enqueue_message(int32_t src, int32_t dst, int32_t bytes, int64_t now, uint32_t lid_offset,
                       uint8_t flags = 0, int32_t group = -1);
  // All-to-all with AlltoallSync::kPairwise: phase k of terminal t is
  // complete when its message to t + k and the message from t - k have
  // arrived (bits t * a2a_words_ + k / 64 of a2a_sent_ / a2a_recv_).
  bool pairwise_ = false;
  int32_t a2a_words_ = 0, a2a_window_ = 1;
  std::vector<uint64_t> a2a_sent_, a2a_recv_;
  std::vector<int32_t> a2a_low_;  // per terminal: lowest phase not complete
  // (tail arrival cycle, source, destination) of last packets, processed at
  // that cycle: a message counts as arrived when its tail has.
  std::priority_queue<std::tuple<int64_t, int32_t, int32_t>,
                      std::vector<std::tuple<int64_t, int32_t, int32_t>>, std::greater<>>
      a2a_pending_;
  void a2a_complete(int64_t now);
  bool a2a_bit(const std::vector<uint64_t> &v, int32_t t, int32_t k) const {
    return (v[static_cast<size_t>(t) * a2a_words_ + (k >> 6)] >> (k & 63)) & 1;
  }
  int64_t sq_cap_ = 64;  // packets a source queue holds
  void generate(int64_t now);
  void inject(int64_t now);
  void arbitrate(int64_t now);
  void deliver(int32_t id, int64_t done);
  void account(const Packet &p, int64_t done);  // a packet or copy arrived
  // Deadlock search over the wait-for graph of channel buffers (see the
  // header): appends to succ_ the buffers b's head waits for (at most one
  // for a unicast head, one per blocked copy for a multicast one).
  void waits_for(int32_t b);
  // The buffer a unicast head of b waits for, or kNone (runs without
  // multicast: the chain walk).
  int32_t unicast_wait(int32_t b) const;
  // Called when b gained a packet or a new head: the cycle through b that
  // this closed, if any, is recorded. Costs nothing unless b is full for
  // an MTU packet (no edge can enter it otherwise).
  void check_closed(int32_t b);
  // Records the cycle (first one: into res_), marks it dead.
  void record_deadlock(std::vector<int32_t> cyc);
  // Every cycle not yet recorded (the end-of-run check); O(buffers + edges).
  void find_cycles();
  // Depth-first search frames over succ_ (no allocation once grown).
  struct Frame {
    int32_t b, begin, next, end;  // b's successors: succ_[begin, end)
  };
  // Pushes a frame for y with its successors appended to succ_.
  void push_frame(int32_t y) {
    const int32_t begin = static_cast<int32_t>(succ_.size());
    waits_for(y);
    stack_.push_back(Frame{y, begin, begin, static_cast<int32_t>(succ_.size())});
  }
  std::vector<Frame> stack_;
  std::vector<int32_t> succ_, seen_;
  int32_t stamp_ = 0;
  std::vector<int32_t> mark_;
  std::vector<uint8_t> dead_;  // buffer on a recorded cycle
  int32_t chan_bufs_ = 0;      // channel buffers: 0 .. C * V - 1
  int32_t max_len_ = 32;       // credits of an MTU packet
  int64_t delivered_at_deadlock_ = 0;
  int64_t stall_ = 5000;

  // Event-driven skipping (results identical to scanning everything every
  // cycle): an output port is arbitrated only in cycles where it may grant,
  // i.e. after a wake-up: its link freed (grant + len), a head packet for it
  // became routable, the input port of a head for it freed, or credits came
  // back to the buffer it feeds. A terminal tries to inject only after its
  // link freed, a packet arrived in its queue or credits came back. Cycles
  // in which nothing is scheduled are skipped.
  // Events: output o (0 <= o < NI), release of input port NI + i, terminal
  // injection 2 NI + t; in a wheel of W cycles, later ones in far_.
  void at(int64_t t, int32_t ev);
  void wake_out(int32_t o, int64_t t);
  void wake_term(int32_t term, int64_t t);
  void release(int32_t i);
  void handle(int32_t ev);
  int64_t next_event_after(int64_t now) const;
  int64_t now_ = 0;
  int32_t ni_ = 0;
  int64_t wmask_ = 0;
  std::vector<std::vector<int32_t>> wheel_;
  std::priority_queue<std::pair<int64_t, int32_t>, std::vector<std::pair<int64_t, int32_t>>,
                      std::greater<>>
      far_;
  std::vector<int32_t> dirty_out_, dirty_term_, refill_, refill_next_;
  std::vector<int64_t> out_stamp_, term_stamp_;  // cycle the output / terminal was listed
  std::vector<int32_t> out_pos_, pos_sw_;        // output id -> position in out_list_ -> switch
  int32_t a2a_done_ = 0;                         // terminals past their last shift
  // Per output, a bit per (input port, VL) slot of its switch whose head
  // packet wants it (slot = local input index * V + VL): arbitration visits
  // only those, in the same round-robin order as a scan of every slot.
  std::vector<uint64_t> want_bits_;
  std::vector<int32_t> want_word_;  // per output id: its first word
  std::vector<int32_t> in_slot_;    // per input id: index among its switch's inputs
  void set_want(int32_t b, int32_t o, bool on) {
    const int32_t k = in_slot_[b / V_] * V_ + b % V_;
    uint64_t &w = want_bits_[want_word_[o] + (k >> 6)];
    const uint64_t bit = uint64_t{1} << (k & 63);
    w = on ? (w | bit) : (w & ~bit);
  }
  // Grants slot k (local) of switch s to output o if its head may go now.
  bool try_grant(int64_t now, int32_t s, int32_t o, int32_t k);
  // A grant of slot k (input in) to output o for a packet of len credits:
  // the input's release event, o busy until it has passed, o's round-robin
  // pointer at k, and the last move now.
  void occupy(int64_t now, int32_t in, int32_t o, int32_t k, int32_t len) {
    at(now + len, ni_ + in);
    out_busy_[o] = now + len;
    wake_out(o, now + len);
    rr_[o] = k;
    last_move_ = now;
  }

  const Fabric &f_;
  const Routing &r_;
  const Config &c_;
  topo::Rng rng_;
  Result res_;
  int32_t C_ = 0, T_ = 0, V_ = 1;
  int lat_ = 0;
  bool finite_ = false;
  int64_t win_begin_ = 0, win_end_ = 0;
  std::vector<Packet> pk_;
  int32_t free_list_ = kNone;
  std::vector<Buffer> buf_;  // (input id) * V + vl; input id: channel c, or C + terminal
  std::vector<InPort> in_;
  std::vector<int64_t> out_busy_;  // output id: channel c, or C + terminal (ejection)
  std::vector<int32_t> rr_;
  std::vector<int32_t> want_;  // per output id: head packets waiting for it
  std::vector<int32_t> in_start_, in_list_, out_start_, out_list_;  // per switch
  std::vector<int32_t> port_start_, port_out_;  // per switch port: output id or kNone
  std::vector<int32_t> sw_packets_;             // packets in a switch's buffers
  // terminals: source queue, injection link, all-to-all state
  std::vector<int32_t> sq_head_, sq_tail_, sq_count_, a2a_shift_;
  std::vector<int64_t> inj_busy_;
  std::vector<int64_t> credits_by_src_;
  std::vector<uint32_t> hist_;
  int64_t in_network_ = 0, outstanding_ = 0, last_move_ = 0, pending_drops_ = 0;
  int64_t lat_sum_ = 0, generated_credits_ = 0, delivered_credits_ = 0;
  int64_t a2a_left_ = 0;
  size_t next_msg_ = 0;
  std::vector<Message> msgs_;
  int pkts_per_msg_ = 1;
  int64_t size_credits_ = 0;  // credits of one c_.size message
  int64_t delivered_all_ = 0, progress_total_ = 0;
  int64_t last_done_ = 0;  // latest tail arrival so far
};

int Sim::count_vls() const {
  // SLs any terminal pair uses, then the VLs SL2VL gives them anywhere.
  uint32_t sls = 0;
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    for (int32_t t = 0; t < T_; ++t) {
      const TerminalInfo &ti = f_.terminal(t);
      for (uint32_t k = 0; k < (1u << ti.lmc); ++k) {
        const uint8_t sl = r_.path_sl(s, static_cast<uint16_t>(ti.lid + k));
        sls |= 1u << (sl < kNumSls ? sl : c_.assume_sl);
      }
    }
  if (c_.source_sls) sls = 0xFFFF;
  if (c_.groups)
    for (const mcast::Group &g : *c_.groups) sls |= g.sl_mask ? (g.sl_mask & -g.sl_mask) : 1u;
  int maxvl = 0;
  for (int sl = 0; sl < kNumSls; ++sl) {
    if (!(sls & (1u << sl))) continue;
    for (int32_t t = 0; t < T_; ++t) {
      const int v = r_.terminal_vl(t, static_cast<uint8_t>(sl));
      if (v < kMaxDataVls) maxvl = std::max(maxvl, v);
    }
    for (int32_t s = 0; s < f_.num_switches(); ++s) {
      const int p = r_.switch_ports(s);
      for (int i = 0; i <= p; ++i)
        for (int o = 1; o <= p; ++o) {
          const int v =
              r_.vl(s, static_cast<uint8_t>(i), static_cast<uint8_t>(o), static_cast<uint8_t>(sl));
          if (v < kMaxDataVls) maxvl = std::max(maxvl, v);
        }
    }
  }
  return maxvl + 1;
}

void Sim::setup_ports() {
  const int32_t S = f_.num_switches();
  in_start_.assign(S + 1, 0);
  out_start_.assign(S + 1, 0);
  port_start_.assign(S + 1, 0);
  for (int32_t s = 0; s < S; ++s) {
    const int32_t n = static_cast<int32_t>(f_.in_channels(s).size() + f_.terminals_of(s).size());
    in_start_[s + 1] = in_start_[s] + n;
    out_start_[s + 1] =
        out_start_[s] + f_.degree(s) + static_cast<int32_t>(f_.terminals_of(s).size());
    port_start_[s + 1] = port_start_[s] + f_.sw(s).num_ports + 1;
  }
  in_list_.clear();
  out_list_.clear();
  port_out_.assign(port_start_[S], kNone);
  for (int32_t s = 0; s < S; ++s) {
    for (int32_t c : f_.in_channels(s)) in_list_.push_back(c);
    for (int32_t t : f_.terminals_of(s)) in_list_.push_back(C_ + t);
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
      out_list_.push_back(c);
      port_out_[port_start_[s] + f_.channel(c).src_port] = c;
    }
    for (int32_t t : f_.terminals_of(s)) {
      out_list_.push_back(C_ + t);
      port_out_[port_start_[s] + f_.terminal(t).sw_port] = C_ + t;
    }
  }
}

void Sim::setup_arbiters() {
  const int32_t S = f_.num_switches();
  out_pos_.assign(ni_, kNone);
  pos_sw_.assign(out_list_.size(), 0);
  for (int32_t s = 0; s < S; ++s)
    for (int32_t oi = out_start_[s]; oi < out_start_[s + 1]; ++oi) {
      out_pos_[out_list_[oi]] = oi;
      pos_sw_[oi] = s;
    }
  out_stamp_.assign(ni_, -1);
  in_slot_.assign(ni_, 0);
  want_word_.assign(ni_, 0);
  int32_t words = 0;
  for (int32_t s = 0; s < S; ++s) {
    for (int32_t k = in_start_[s]; k < in_start_[s + 1]; ++k)
      in_slot_[in_list_[k]] = k - in_start_[s];
    const int32_t nw = ((in_start_[s + 1] - in_start_[s]) * V_ + 63) / 64;
    for (int32_t oi = out_start_[s]; oi < out_start_[s + 1]; ++oi) {
      want_word_[out_list_[oi]] = words;
      words += nw;
    }
  }
  want_bits_.assign(words, 0);
}

void Sim::setup_packets() {
  const int32_t mtu = std::max(64, c_.mtu);
  pkts_per_msg_ = (c_.size + mtu - 1) / mtu;
  size_credits_ = static_cast<int64_t>(pkts_per_msg_ - 1) * ((mtu + 63) / 64) +
                  (c_.size - (pkts_per_msg_ - 1) * mtu + 63) / 64;
  int32_t min_len = std::max(1, ((c_.size - (pkts_per_msg_ - 1) * mtu) + 63) / 64);
  msgs_ = c_.messages;
  std::stable_sort(msgs_.begin(), msgs_.end(),
                   [](const Message &a, const Message &b) { return a.time < b.time; });
  int max_msg_pkts = pkts_per_msg_;
  for (const Message &m : msgs_) {
    const int n = (m.bytes + mtu - 1) / mtu;
    max_msg_pkts = std::max(max_msg_pkts, n);
    min_len = std::min(min_len, std::max(1, ((m.bytes - (n - 1) * mtu) + 63) / 64));
  }
  int64_t queue = std::max<int64_t>(c_.source_queue, max_msg_pkts);
  if (c_.traffic == Traffic::kAlltoall && c_.alltoall_sync == AlltoallSync::kPairwise)
    queue = std::max<int64_t>(
        queue, static_cast<int64_t>(std::max(1, c_.alltoall_window)) * pkts_per_msg_);
  sq_cap_ = queue;
  const int64_t pool = T_ * (queue + max_msg_pkts) +
                       static_cast<int64_t>(buf_.size()) * c_.buffer_credits / min_len +
                       static_cast<int64_t>(msgs_.size()) * max_msg_pkts + 16;
  pk_.assign(pool, Packet{});
  for (int64_t i = pool - 1; i >= 0; --i) {
    pk_[i].next = free_list_;
    free_list_ = static_cast<int32_t>(i);
  }
}

void Sim::setup_alltoall() {
  if (c_.traffic == Traffic::kAlltoall) a2a_left_ = static_cast<int64_t>(T_) * (T_ - 1);
  pairwise_ = c_.traffic == Traffic::kAlltoall && c_.alltoall_sync == AlltoallSync::kPairwise;
  if (!pairwise_) return;
  a2a_window_ = std::max(1, c_.alltoall_window);
  a2a_words_ = (T_ + 63) / 64;
  a2a_sent_.assign(static_cast<size_t>(T_) * a2a_words_, 0);
  a2a_recv_.assign(static_cast<size_t>(T_) * a2a_words_, 0);
  a2a_low_.assign(T_, 1);
}

void Sim::setup() {
  C_ = f_.num_channels();
  T_ = f_.num_terminals();
  V_ = count_vls();
  lat_ = c_.switch_latency;
  const int32_t S = f_.num_switches();
  const int32_t ni = C_ + T_;
  finite_ = c_.traffic == Traffic::kAlltoall || !c_.messages.empty();
  win_begin_ = finite_ ? 0 : c_.warmup;
  win_end_ = c_.warmup + c_.measure;
  buf_.assign(static_cast<size_t>(ni) * V_, Buffer{kNone, kNone, c_.buffer_credits, 0});
  chan_bufs_ = C_ * V_;
  max_len_ = (std::max(64, c_.mtu) + 63) / 64;
  stall_ = stall_cycles(c_);
  in_.assign(ni, InPort{});
  out_busy_.assign(ni, 0);
  rr_.assign(ni, -1);
  want_.assign(ni, 0);
  setup_ports();
  sw_packets_.assign(S, 0);
  sq_head_.assign(T_, kNone);
  sq_tail_.assign(T_, kNone);
  sq_count_.assign(T_, 0);
  a2a_shift_.assign(T_, 1);
  inj_busy_.assign(T_, 0);
  credits_by_src_.assign(T_, 0);
  hist_.assign(kHistSize, 0);
  mark_.assign(chan_bufs_, 0);
  dead_.assign(chan_bufs_, 0);
  seen_.assign(chan_bufs_, 0);
  ni_ = ni;
  setup_arbiters();
  term_stamp_.assign(T_, -1);
  // Packet pool: full source queues plus every buffer full of the smallest packets.
  setup_packets();
  setup_mcast();
  setup_alltoall();
  // Wheel: every event but a far deadlock / message time is at most a switch
  // latency plus a packet ahead.
  const int32_t mtu = std::max(64, c_.mtu);
  int64_t w = 64;
  const int64_t span = int64_t{lat_} + 2 + (mtu + 63) / 64;
  while (w <= span && w < (int64_t{1} << 16)) w *= 2;
  wheel_.assign(w, {});
  wmask_ = w - 1;
  if (c_.traffic == Traffic::kAlltoall)
    for (int32_t t = 0; t < T_; ++t) {
      if (a2a_shift_[t] >= T_)
        ++a2a_done_;
      else
        refill_.push_back(t);
    }
  progress_total_ = finite_ ? 0 : win_end_;
  if (c_.traffic == Traffic::kAlltoall) progress_total_ += a2a_left_ * pkts_per_msg_;
  for (const Message &m : msgs_) progress_total_ += (m.bytes + mtu - 1) / mtu;
}

void Sim::setup_mcast() {
  res_.mcast_received.assign(T_, 0);
  mc_on_ = c_.groups && !c_.groups->empty();
  if (!mc_on_) return;
  const size_t G = c_.groups->size();
  mg_.assign(G, McGroup{});
  mg_by_mlid_.assign(mcast::kLastMlid - mcast::kFirstMlid + 1, kNone);
  groups_of_.assign(T_, {});
  member_.assign(G * T_, 0);
  for (size_t g = 0; g < G; ++g) {
    const mcast::Group &gr = (*c_.groups)[g];
    McGroup &m = mg_[g];
    m.mlid = gr.mlid;
    m.sl = gr.sl_mask ? static_cast<uint8_t>(__builtin_ctz(gr.sl_mask)) : 0;
    if (c_.trees)
      for (const mcast::Tree &t : *c_.trees)
        if (t.mlid == gr.mlid) m.tree = &t;
    if (gr.mlid >= mcast::kFirstMlid && gr.mlid <= mcast::kLastMlid)
      mg_by_mlid_[gr.mlid - mcast::kFirstMlid] = static_cast<int32_t>(g);
    for (const int32_t t : gr.terminals) {
      if (t < 0 || t >= T_ || member_[g * T_ + t]) continue;
      member_[g * T_ + t] = 1;
      m.members.push_back(t);
      groups_of_[t].push_back(static_cast<int32_t>(g));
    }
  }
  mc_pending_.assign(pk_.size(), mcast::PortMask{});
  mc_lin_.assign(pk_.size(), kNone);
}

int32_t Sim::new_lineage() {
  if (res_.storm) return kNone;
  if (lin_free_.empty()) {
    lin_free_.push_back(static_cast<int32_t>(lin_.size()));
    lin_.emplace_back();
  }
  const int32_t l = lin_free_.back();
  lin_free_.pop_back();
  lin_[l].live = 1;
  return l;
}

void Sim::end_copy(int32_t id) {
  const int32_t l = mc_lin_[id];
  if (l == kNone || --lin_[l].live > 0) return;
  for (const int32_t c : lin_[l].chans) crossed_.erase(lin_key(l, c));
  lin_[l].chans.clear();
  lin_free_.push_back(l);
}

int32_t Sim::pick_group(int32_t t) {
  const std::vector<int32_t> &gs = groups_of_[t];
  if (gs.empty()) return kNone;
  return gs.size() == 1 ? gs[0] : gs[rng_.below(static_cast<uint32_t>(gs.size()))];
}

int32_t Sim::count_active_sources() const {
  std::vector<char> on(T_, 0);
  const bool rate = c_.traffic != Traffic::kAlltoall && c_.load > 0 && T_ >= 2;
  for (int32_t t = 0; t < T_; ++t) {
    if (c_.traffic == Traffic::kAlltoall) {
      on[t] = T_ >= 2;
    } else if (!rate) {
      continue;
    } else if (c_.traffic == Traffic::kUniform || c_.traffic == Traffic::kHotspot) {
      on[t] = 1;
    } else if (c_.traffic == Traffic::kBroadcast) {
      on[t] = mc_on_ && !groups_of_[t].empty();
    } else if (c_.traffic == Traffic::kFixed) {
      const int32_t d = t < static_cast<int32_t>(c_.fixed_dest.size()) ? c_.fixed_dest[t] : kNone;
      const int32_t g = -2 - d;
      on[t] = (d >= 0 && d < T_ && d != t) ||
              (mc_on_ && g >= 0 && g < static_cast<int32_t>(mg_.size()));
    } else {
      on[t] = permutation_dest(c_.traffic, t, T_) != t;
    }
  }
  if (c_.traffic != Traffic::kAlltoall && c_.traffic != Traffic::kBroadcast &&
      c_.traffic != Traffic::kFixed && rate && c_.mcast_rate > 0)
    for (int32_t t = 0; t < T_; ++t) on[t] = on[t] || (mc_on_ && !groups_of_[t].empty());
  for (const Message &m : msgs_)
    if (m.src >= 0 && m.src < T_) on[m.src] = 1;
  return static_cast<int32_t>(std::count(on.begin(), on.end(), 1));
}

uint8_t Sim::path_sl(int32_t src, uint16_t dlid) const {
  const TerminalInfo &s = f_.terminal(src);
  if (c_.source_sls) {
    const int sl = c_.source_sls->get(s.lid, dlid);
    if (sl >= 0) return static_cast<uint8_t>(sl);
  }
  const uint8_t sl = r_.path_sl(s.sw, dlid);
  return sl == check::kNoPathSl ? static_cast<uint8_t>(c_.assume_sl) : sl;
}

void Sim::route(int32_t id, int32_t sw, uint8_t in_port) {
  Packet &p = pk_[id];
  if (p.flags & kMcast) return route_mc(id, sw, in_port);
  const uint16_t dlid = p.dlid;
  const uint8_t op = r_.out_port(sw, dlid);
  const auto drop = [&](const std::string &why) {
    p.out = kDrop;
    ++pending_drops_;
    if (res_.first_drop.empty())
      res_.first_drop =
          strprintf("%s -> %s: %s at switch %s", f_.terminal(p.src).name.c_str(),
                    f_.terminal(p.dst).name.c_str(), why.c_str(), f_.describe(sw).c_str());
  };
  if (op == kNoPort || op == 0 || op > f_.sw(sw).num_ports) return drop("no LFT port");
  const int32_t o = port_out_[port_start_[sw] + op];
  if (o == kNone) return drop(strprintf("port %u has no link", op));
  if (o >= C_) {
    if (o - C_ != p.dst) return drop("delivered to the wrong port");
    p.out = o;
    return;
  }
  if (p.hops >= kHopLimit) return drop("hop limit (forwarding loop)");
  const uint8_t vl = p.sl < kNumSls ? r_.vl(sw, in_port, op, p.sl) : 15;
  if (vl >= V_) return drop(strprintf("VL %u", vl));
  p.out = o;
  p.out_vl = vl;
}

// Multicast copies at switch sw: the mask's ports but the in port; port 0
// is taken at once, a port that cannot carry the copy drops it.
void Sim::route_mc(int32_t id, int32_t sw, uint8_t in_port) {
  Packet &p = pk_[id];
  const McGroup &g = mg_[p.dst];
  const mcast::PortMask *mask = g.tree ? g.tree->mask_of(sw) : nullptr;
  mcast::PortMask &m = mc_pending_[id];
  m.reset();
  if (!mask) {
    drop_copy(p, sw, "no multicast entry");
  } else {
    m = *mask;
    m.reset(in_port);
    if (m[0]) {
      ++res_.mcast_switch;
      m.reset(0);
    }
    for (size_t q = m._Find_first(); q < m.size(); q = m._Find_next(q)) {
      const uint8_t op = static_cast<uint8_t>(q);
      const int32_t o = q <= f_.sw(sw).num_ports ? port_out_[port_start_[sw] + op] : kNone;
      const uint8_t vl = o >= 0 && o < C_ && p.sl < kNumSls ? r_.vl(sw, in_port, op, p.sl) : 0;
      if (o == kNone || vl >= V_) {
        m.reset(q);
        drop_copy(p, sw,
                  o == kNone ? strprintf("port %u has no link", op) : strprintf("VL %u", vl));
      }
    }
  }
  p.out = m.any() ? kMulti : kSpent;
  if (p.out == kSpent) ++pending_drops_;
}

void Sim::drop_copy(const Packet &p, int32_t sw, const std::string &why) {
  ++res_.mcast_dropped;
  if (res_.first_mcast_drop.empty())
    res_.first_mcast_drop =
        strprintf("MLID 0x%04X from %s: %s at switch %s", mg_[p.dst].mlid,
                  f_.terminal(p.src).name.c_str(), why.c_str(), f_.describe(sw).c_str());
}

void Sim::note_storm(const Packet &p, int32_t c) {
  ++res_.storm_copies;
  if (res_.storm) return;
  res_.storm = true;
  res_.storm_at = now_;
  res_.storm_mlid = mg_[p.dst].mlid;
  const Channel &ch = f_.channel(c);
  res_.storm_what = strprintf(
      "MLID 0x%04X: a copy of %s's packet was sent again on switch %s port %u (to %s port %u), "
      "which a copy of the same packet had crossed: the masks hold a loop, copies go round it "
      "for ever",
      mg_[p.dst].mlid, f_.terminal(p.src).name.c_str(), f_.describe(ch.src).c_str(), ch.src_port,
      f_.describe(ch.dst).c_str(), ch.dst_port);
}

void Sim::want_mc(int32_t b, int32_t id, bool on) {
  for_each_out(b, id, [&](int32_t o) {
    want_[o] += on ? 1 : -1;
    set_want(b, o, on);
  });
}

void Sim::wake_mc(int32_t b, int32_t id, int64_t t) {
  for_each_out(b, id, [&](int32_t o) { wake_out(o, t); });
}

void Sim::push(int32_t b, int32_t id) {
  pk_[id].next = kNone;
  Buffer &q = buf_[b];
  q.queued += pk_[id].len;
  if (q.tail == kNone) {
    q.head = id;
    want_head(b, true);
    wake_head(b, 0);
  } else
    pk_[q.tail].next = id;
  q.tail = id;
}

int32_t Sim::pop(int32_t b) {
  Buffer &q = buf_[b];
  const int32_t id = q.head;
  want_head(b, false);
  q.head = pk_[id].next;
  if (q.head == kNone) q.tail = kNone;
  want_head(b, true);
  q.queued -= pk_[id].len;
  return id;
}

bool Sim::enqueue_message(int32_t src, int32_t dst, int32_t bytes, int64_t now, uint32_t lid_offset,
                          uint8_t flags, int32_t group) {
  const int32_t mtu = std::max(64, c_.mtu);
  const int n = (bytes + mtu - 1) / mtu;
  const int64_t cap = std::max<int64_t>(sq_cap_, n);
  if (sq_count_[src] + n > cap) return false;
  uint16_t dlid = 0;
  uint8_t sl = 0;
  int64_t copies = 1;  // credits arrive once per member but the source
  if (group >= 0) {
    dlid = mg_[group].mlid;
    sl = mg_[group].sl;
    dst = group;
    flags |= kMcast;
    copies = fanout(group, src);
  } else {
    const TerminalInfo &d = f_.terminal(dst);
    dlid = static_cast<uint16_t>(d.lid + (c_.use_lmc ? lid_offset % (1u << d.lmc) : 0));
    sl = path_sl(src, dlid);
  }
  for (int i = 0; i < n; ++i) {
    const int32_t id = free_list_;
    if (id == kNone) return false;  // cannot happen with the pool's size
    free_list_ = pk_[id].next;
    Packet &p = pk_[id];
    const int32_t b = std::min(mtu, bytes - i * mtu);
    p = Packet{};
    p.created = now;
    p.src = src;
    p.dst = dst;
    p.len = static_cast<int16_t>((b + 63) / 64);
    p.sl = sl;
    p.dlid = dlid;
    p.next = kNone;
    p.flags = static_cast<uint8_t>(flags | (i == n - 1 ? kLastOfMessage : 0));
    if (sq_tail_[src] == kNone)
      sq_head_[src] = id;
    else
      pk_[sq_tail_[src]].next = id;
    sq_tail_[src] = id;
    ++sq_count_[src];
    wake_term(src, now);
    ++outstanding_;
    if (now >= win_begin_ && (finite_ || now < win_end_)) {
      generated_credits_ += p.len * copies;
      if (group >= 0) mc_generated_ += p.len * copies;
    }
  }
  return true;
}

void Sim::generate(int64_t now) {
  while (next_msg_ < msgs_.size() && msgs_[next_msg_].time <= now) {
    const Message &m = msgs_[next_msg_++];
    const int32_t g = mc_on_ && m.group < static_cast<int32_t>(mg_.size()) ? m.group : -1;
    if (!enqueue_message(m.src, m.dst, m.bytes, now, static_cast<uint32_t>(m.src), 0, g))
      ++res_.packets_refused;
  }
  if (pairwise_) {
    // Terminals with a phase completed (all of them at cycle 0): move the
    // lowest incomplete phase on, start the phases the window allows.
    for (const int32_t t : refill_) {
      int32_t &low = a2a_low_[t];
      while (low < T_ && a2a_bit(a2a_sent_, t, low) && a2a_bit(a2a_recv_, t, low)) ++low;
      while (a2a_shift_[t] < T_ && a2a_shift_[t] < int64_t{low} + a2a_window_) {
        enqueue_message(t, (t + a2a_shift_[t]) % T_, c_.size, now, static_cast<uint32_t>(t),
                        kAlltoall);
        if (++a2a_shift_[t] == T_) ++a2a_done_;
      }
    }
    refill_.clear();
    return;
  }
  if (c_.traffic == Traffic::kAlltoall) {
    // Terminals whose queue emptied last cycle (all of them at cycle 0).
    for (const int32_t t : refill_)
      while (a2a_shift_[t] < T_ && sq_count_[t] == 0) {
        enqueue_message(t, (t + a2a_shift_[t]) % T_, c_.size, now, static_cast<uint32_t>(t));
        if (++a2a_shift_[t] == T_) ++a2a_done_;
      }
    refill_.clear();
    return;
  }
  if (c_.load <= 0 || T_ < 2) return;
  const double credits = std::ceil(c_.size / 64.0);
  const double p = std::min(1.0, c_.load / credits);
  for (int32_t t = 0; t < T_; ++t) {
    if (rng_.unit() >= p) continue;
    if (mc_on_ && (c_.traffic == Traffic::kBroadcast ||
                   (c_.mcast_rate > 0 && c_.traffic != Traffic::kFixed && !groups_of_[t].empty() &&
                    rng_.unit() < c_.mcast_rate))) {
      generate_mcast(t, pick_group(t), now);
      continue;
    }
    int32_t d = kNone;
    switch (c_.traffic) {
      case Traffic::kUniform:
      case Traffic::kHotspot:
        if (c_.traffic == Traffic::kHotspot && t != c_.hotspot &&
            rng_.unit() < c_.hotspot_fraction) {
          d = c_.hotspot;
        } else {
          d = static_cast<int32_t>(rng_.below(T_ - 1));
          if (d >= t) ++d;
        }
        break;
      case Traffic::kFixed:
        d = t < static_cast<int32_t>(c_.fixed_dest.size()) ? c_.fixed_dest[t] : kNone;
        if (d <= -2 && mc_on_ && -2 - d < static_cast<int32_t>(mg_.size())) {
          generate_mcast(t, -2 - d, now);
          continue;
        }
        break;
      case Traffic::kBroadcast:
        continue;  // not a member of any group: silent
      default:
        d = permutation_dest(c_.traffic, t, T_);
        break;
    }
    if (d < 0 || d == t || d >= T_) continue;
    const uint32_t off = f_.terminal(d).lmc ? static_cast<uint32_t>(rng_.next() >> 32) : 0;
    if (!enqueue_message(t, d, c_.size, now, off)) {
      ++res_.packets_refused;
      if (now >= win_begin_ && now < win_end_) generated_credits_ += size_credits_;
    }
  }
}

void Sim::generate_mcast(int32_t t, int32_t g, int64_t now) {
  if (g < 0) return;
  if (!enqueue_message(t, 0, c_.size, now, 0, 0, g)) {
    ++res_.packets_refused;
    if (now >= win_begin_ && now < win_end_) {
      generated_credits_ += size_credits_ * fanout(g, t);
      mc_generated_ += size_credits_ * fanout(g, t);
    }
  }
}

void Sim::inject(int64_t now) {
  for (const int32_t t : dirty_term_) {
    const int32_t head = sq_head_[t];
    if (head == kNone || inj_busy_[t] > now) continue;
    const TerminalInfo &ti = f_.terminal(t);
    if (r_.terminal_vl(t, pk_[head].sl < kNumSls ? pk_[head].sl : 0) >= V_) {
      // cannot be sent: drop at the source
      Packet &p = pk_[head];
      sq_head_[t] = p.next;
      if (sq_head_[t] == kNone) sq_tail_[t] = kNone;
      --sq_count_[t];
      --outstanding_;
      ++res_.packets_dropped;
      if (res_.first_drop.empty())
        res_.first_drop = strprintf("%s maps SL %u to VL %u on its own port", ti.name.c_str(), p.sl,
                                    r_.terminal_vl(t, p.sl < kNumSls ? p.sl : 0));
      if (pairwise_ && (p.flags & kLastOfMessage) && (p.flags & kAlltoall))
        a2a_pending_.emplace(now, p.src, p.dst);
      p.next = free_list_;
      free_list_ = head;
      wake_term(t, now + 1);
      if (sq_count_[t] == 0 && c_.traffic == Traffic::kAlltoall && !pairwise_)
        refill_next_.push_back(t);
      continue;
    }
    // The packet to send: the head, or with per-VL source queues the first
    // packet of the first VL (in queue order) whose buffer has room.
    int32_t id = head, prev = kNone;
    uint32_t tried = 0;
    for (;;) {
      const Packet &q = pk_[id];
      const uint8_t vl = r_.terminal_vl(t, q.sl < kNumSls ? q.sl : 0);
      if (vl < V_ && !(tried & (1u << vl))) {
        if (buf_[(C_ + t) * V_ + vl].free >= q.len) break;
        tried |= 1u << vl;
      }
      if (!c_.vl_source_queues || q.next == kNone || tried == (V_ >= 32 ? ~0u : (1u << V_) - 1)) {
        id = kNone;
        break;
      }
      prev = id;
      id = q.next;
    }
    if (id == kNone) continue;  // woken when credits come back
    Packet &p = pk_[id];
    const uint8_t vl = r_.terminal_vl(t, p.sl < kNumSls ? p.sl : 0);
    const int32_t b = (C_ + t) * V_ + vl;
    if (prev == kNone)
      sq_head_[t] = p.next;
    else
      pk_[prev].next = p.next;
    if (sq_tail_[t] == id) sq_tail_[t] = prev;
    --sq_count_[t];
    if (sq_count_[t] == 0 && c_.traffic == Traffic::kAlltoall && !pairwise_)
      refill_next_.push_back(t);
    buf_[b].free -= p.len;
    inj_busy_[t] = now + p.len;
    wake_term(t, now + p.len);
    p.ready = now + 1 + lat_;
    p.hops = 0;
    if (p.flags & kMcast) {
      mc_lin_[id] = new_lineage();
      ++res_.mcast_sent;
      res_.mcast_expected += fanout(p.dst, t);
    }
    route(id, ti.sw, ti.sw_port);
    push(b, id);
    ++sw_packets_[ti.sw];
    ++in_network_;
    last_move_ = now;
  }
}

void Sim::deliver(int32_t id, int64_t done) {
  Packet &p = pk_[id];
  --outstanding_;
  if (pairwise_ && (p.flags & (kLastOfMessage | kAlltoall)) == (kLastOfMessage | kAlltoall))
    a2a_pending_.emplace(done, p.src, p.dst);
  account(p, done);
  p.next = free_list_;
  free_list_ = id;
}

void Sim::deliver_copy(const Packet &p, int32_t term, int64_t done) {
  if (member_[static_cast<size_t>(p.dst) * T_ + term])
    ++res_.mcast_delivered;
  else
    ++res_.mcast_non_member;
  ++res_.mcast_received[term];
  if (done >= win_begin_ && (finite_ || done < win_end_)) mc_credits_ += p.len;
  account(p, done);
}

void Sim::account(const Packet &p, int64_t done) {
  ++delivered_all_;
  last_done_ = std::max(last_done_, done);
  if (done >= win_begin_ && (finite_ || done < win_end_)) {
    ++res_.packets_delivered;
    delivered_credits_ += p.len;
    credits_by_src_[p.src] += p.len;
    if (p.created >= win_begin_) {
      const int64_t l = done - p.created;
      ++res_.packets_measured;
      lat_sum_ += l;
      ++hist_[std::min<size_t>(static_cast<size_t>(l), kHistSize - 1)];
      res_.latency_max = std::max(res_.latency_max, static_cast<double>(l));
    }
  }
}

void Sim::arbitrate(int64_t now) {
  if (pending_drops_) {
    const int32_t S = f_.num_switches();
    for (int32_t s = 0; s < S; ++s)
      for (int32_t k = in_start_[s]; k < in_start_[s + 1]; ++k)
        for (int v = 0; v < V_; ++v) {
          const int32_t b = in_list_[k] * V_ + v;
          while (buf_[b].head != kNone &&
                 (pk_[buf_[b].head].out == kDrop || pk_[buf_[b].head].out == kSpent) &&
                 pk_[buf_[b].head].ready <= now) {
            const int32_t id = pop(b);
            buf_[b].free += pk_[id].len;
            const int32_t in = in_list_[k];
            if (in < C_)
              wake_out(in, now);  // the upstream output may use the credits now
            else
              wake_term(in - C_, now + 1);  // injection came earlier this cycle
            wake_head(b, now);
            --pending_drops_;
            --sw_packets_[s];
            --in_network_;
            --outstanding_;
            if (pk_[id].out == kDrop) ++res_.packets_dropped;
            if (pk_[id].out == kSpent) end_copy(id);
            if (pairwise_ && (pk_[id].flags & kLastOfMessage) && (pk_[id].flags & kAlltoall))
              a2a_pending_.emplace(now, pk_[id].src, pk_[id].dst);
            pk_[id].next = free_list_;
            free_list_ = id;
            last_move_ = now;
            check_closed(b);
          }
        }
  }
  // The woken outputs, in switch and port order as a full scan would take
  // them (outputs of one switch compete for its input ports).
  std::sort(dirty_out_.begin(), dirty_out_.end());
  for (const int32_t oi : dirty_out_) {
    const int32_t s = pos_sw_[oi];
    const int32_t o = out_list_[oi];
    if (sw_packets_[s] == 0 || out_busy_[o] > now || want_[o] == 0) continue;
    // Round robin: slots rr+1 .. slots-1, then 0 .. rr, of those whose head
    // wants o; the first that may go is granted.
    const int32_t slots = (in_start_[s + 1] - in_start_[s]) * V_;
    const uint64_t *wb = &want_bits_[want_word_[o]];
    const int32_t start = rr_[o] + 1 >= slots ? 0 : rr_[o] + 1;
    bool granted = false;
    for (int pass = 0; pass < 2 && !granted; ++pass) {
      const int32_t lo = pass ? 0 : start, hi = pass ? start : slots;
      for (int32_t w = lo >> 6; (w << 6) < hi && !granted; ++w) {
        uint64_t bits = wb[w];
        if (lo > (w << 6)) bits &= ~uint64_t{0} << (lo & 63);
        if (hi < ((w + 1) << 6)) bits &= (uint64_t{1} << (hi & 63)) - 1;
        for (; bits && !granted; bits &= bits - 1)
          granted = try_grant(now, s, o, (w << 6) + __builtin_ctzll(bits));
      }
    }
  }
}

bool Sim::try_grant(int64_t now, int32_t s, int32_t o, int32_t k) {
  const int32_t in = in_list_[in_start_[s] + k / V_];
  // A busy input port refuses unless it is fanning out a multicast packet.
  if (in_[in].busy_until > now && in_[in].fan_id == kNone) return false;
  const int32_t b = in * V_ + k % V_;
  if (pk_[buf_[b].head].out == kMulti) return grant_copy(now, s, o, k, in, b);
  if (in_[in].busy_until > now) return false;
  const int32_t id = buf_[b].head;
  Packet &p = pk_[id];
  if (p.ready > now) return false;
  if (o < C_ && buf_[o * V_ + p.out_vl].free < p.len) return false;
  pop(b);
  --sw_packets_[s];
  in_[in] = InPort{now + p.len, b, p.len, kNone};
  occupy(now, in, o, k, p.len);
  if (o < C_) {
    const Channel &ch = f_.channel(o);
    const int32_t nb = o * V_ + p.out_vl;
    buf_[nb].free -= p.len;
    p.ready = now + 1 + lat_;
    ++p.hops;
    route(id, ch.dst, ch.dst_port);
    push(nb, id);
    ++sw_packets_[ch.dst];
    check_closed(nb);
  } else {
    --in_network_;
    deliver(id, now + p.len);
  }
  check_closed(b);
  return true;
}

// One copy of multicast head id of buffer b (input in at switch s) on
// output o: sent when o is free (the caller checked), the input port is free
// or fanning this packet out in this very cycle, and the copy's downstream
// buffer has room. The packet leaves b with its last copy.
bool Sim::grant_copy(int64_t now, int32_t s, int32_t o, int32_t k, int32_t in, int32_t b) {
  const int32_t id = buf_[b].head;
  Packet &p = pk_[id];
  InPort &ip = in_[in];
  if (p.ready > now) return false;
  if (ip.busy_until > now && !(ip.fan_id == id && ip.busy_until == now + p.len)) return false;
  const uint8_t in_port = in_port_of(in), op = out_port_of(o);
  const uint8_t vl = o < C_ ? r_.vl(s, in_port, op, p.sl) : 0;
  if (o < C_ && buf_[o * V_ + vl].free < p.len) return false;
  if (o < C_ && free_list_ == kNone) return false;  // cannot happen with the pool's size
  mc_pending_[id].reset(op);
  --want_[o];
  set_want(b, o, false);
  ip.busy_until = now + p.len;
  ip.fan_id = id;
  occupy(now, in, o, k, p.len);
  if (o < C_) {
    const Channel &ch = f_.channel(o);
    const int32_t nb = o * V_ + vl;
    const int32_t cid = free_list_;
    free_list_ = pk_[cid].next;
    pk_[cid] = p;
    pk_[cid].ready = now + 1 + lat_;
    const int32_t l = mc_lin_[id];
    mc_lin_[cid] = l;
    if (l != kNone) {
      ++lin_[l].live;
      if (crossed_.insert(lin_key(l, o)).second)
        lin_[l].chans.push_back(o);
      else
        note_storm(p, o);
    }
    buf_[nb].free -= p.len;
    route(cid, ch.dst, ch.dst_port);
    push(nb, cid);
    ++sw_packets_[ch.dst];
    ++in_network_;
    ++outstanding_;
    check_closed(nb);
  } else {
    deliver_copy(p, o - C_, now + p.len);
  }
  if (mc_pending_[id].none()) {  // the last copy: the packet leaves b
    end_copy(id);
    pop(b);
    --sw_packets_[s];
    --in_network_;
    --outstanding_;
    ip.release_buf = b;
    ip.release_len = p.len;
    p.next = free_list_;
    free_list_ = id;
    check_closed(b);
  }
  return true;
}

void Sim::waits_for(int32_t b) {
  const int32_t id = buf_[b].head;
  if (id == kNone) return;
  const Packet &p = pk_[id];
  if (p.out >= 0 && p.out < C_) {
    const int32_t nb = p.out * V_ + p.out_vl;
    if (c_.buffer_credits - buf_[nb].queued < p.len) succ_.push_back(nb);
    return;
  }
  if (p.out != kMulti) return;
  const int32_t s = sw_of(b / V_);
  const uint8_t in_port = in_port_of(b / V_);
  for_each_out(b, id, [&](int32_t o) {
    if (o >= C_) return;
    const int32_t nb = o * V_ + r_.vl(s, in_port, out_port_of(o), p.sl);
    if (c_.buffer_credits - buf_[nb].queued < p.len) succ_.push_back(nb);
  });
}

int32_t Sim::unicast_wait(int32_t b) const {
  const int32_t id = buf_[b].head;
  if (id == kNone) return kNone;
  const Packet &p = pk_[id];
  if (p.out < 0 || p.out >= C_) return kNone;
  const int32_t nb = p.out * V_ + p.out_vl;
  return c_.buffer_credits - buf_[nb].queued < p.len ? nb : kNone;
}

void Sim::check_closed(int32_t b) {
  if (b >= chan_bufs_ || dead_[b] || c_.buffer_credits - buf_[b].queued >= max_len_) return;
  if (!mc_on_) {
    // Unicast heads only: each buffer waits for at most one other, so the
    // search is a walk along the chain. It ends at a head that can move, at
    // a recorded cycle, or back at b (the step limit only guards against a
    // cycle missed before, which cannot be).
    int32_t y = b;
    for (int32_t steps = 0; steps < chan_bufs_; ++steps) {
      y = unicast_wait(y);
      if (y == kNone || dead_[y]) return;
      if (y != b) continue;
      std::vector<int32_t> cyc;
      for (int32_t x = b; cyc.empty() || x != b; x = unicast_wait(x)) cyc.push_back(x);
      return record_deadlock(std::move(cyc));
    }
    return;
  }
  // With multicast heads: a depth-first search along the waiting heads from
  // b for a way back to b. It stops at heads that can move and at recorded
  // cycles.
  ++stamp_;
  stack_.clear();
  succ_.clear();
  push_frame(b);
  seen_[b] = stamp_;
  while (!stack_.empty()) {
    Frame &fr = stack_.back();
    if (fr.next == fr.end) {
      succ_.resize(fr.begin);
      stack_.pop_back();
      continue;
    }
    const int32_t y = succ_[fr.next++];
    if (y == b) {
      std::vector<int32_t> cyc;
      for (const Frame &x : stack_) cyc.push_back(x.b);
      return record_deadlock(std::move(cyc));
    }
    if (dead_[y] || seen_[y] == stamp_) continue;
    seen_[y] = stamp_;
    push_frame(y);
  }
}

void Sim::record_deadlock(std::vector<int32_t> cyc) {
  for (const int32_t x : cyc) dead_[x] = 1;
  ++res_.deadlocks;
  if (res_.deadlock) return;
  res_.deadlock = true;
  res_.deadlock_at = now_;
  delivered_at_deadlock_ = delivered_all_;
  std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
  for (const int32_t y : cyc) {
    for (int32_t id = buf_[y].head; id != kNone; id = pk_[id].next) ++res_.deadlock_packets;
    const Channel &ch = f_.channel(y / V_);
    const SwitchInfo &si = f_.sw(ch.src);
    const std::string name = si.name.empty()
                                 ? strprintf("0x%016llx", static_cast<unsigned long long>(si.guid))
                                 : si.name;
    res_.deadlock_cycle.push_back(strprintf("%s port %u VL %d", name.c_str(), ch.src_port, y % V_));
  }
}

void Sim::find_cycles() {
  // Depth-first search over the wait-for graph from every buffer in order;
  // mark: 0 new, 1 on the stack, 2 done. An edge to a buffer on the stack
  // closes a cycle (with unicast heads only: the walk along the chain).
  std::fill(mark_.begin(), mark_.end(), 0);
  for (int32_t start = 0; start < chan_bufs_; ++start) {
    if (mark_[start] || dead_[start]) continue;
    stack_.clear();
    succ_.clear();
    push_frame(start);
    mark_[start] = 1;
    while (!stack_.empty()) {
      Frame &fr = stack_.back();
      if (fr.next == fr.end) {
        mark_[fr.b] = 2;
        succ_.resize(fr.begin);
        stack_.pop_back();
        continue;
      }
      const int32_t y = succ_[fr.next++];
      if (dead_[y] || mark_[y] == 2) continue;
      if (mark_[y] == 1) {
        std::vector<int32_t> cyc;
        size_t i = stack_.size();
        while (stack_[i - 1].b != y) --i;
        for (size_t j = i - 1; j < stack_.size(); ++j) cyc.push_back(stack_[j].b);
        record_deadlock(std::move(cyc));
        continue;
      }
      mark_[y] = 1;
      push_frame(y);
    }
  }
}

void Sim::at(int64_t t, int32_t ev) {
  if (t - now_ <= wmask_)
    wheel_[t & wmask_].push_back(ev);
  else
    far_.push({t, ev});
}

void Sim::wake_out(int32_t o, int64_t t) {
  if (t > now_) return at(t, o);
  if (out_stamp_[o] == now_) return;
  out_stamp_[o] = now_;
  dirty_out_.push_back(out_pos_[o]);
}

void Sim::wake_term(int32_t term, int64_t t) {
  if (t > now_) return at(t, 2 * ni_ + term);
  if (term_stamp_[term] == now_) return;
  term_stamp_[term] = now_;
  dirty_term_.push_back(term);
}

// Input port i's granted packet has left: its credits go back upstream, and
// the heads of its buffers may be granted again.
// (A multicast copy that was not its packet's last frees the input port
// without credits: only the heads are woken.)
void Sim::release(int32_t i) {
  InPort &ip = in_[i];
  if (ip.busy_until > now_ || (ip.release_buf == kNone && ip.fan_id == kNone)) return;
  if (ip.release_buf != kNone) {
    buf_[ip.release_buf].free += ip.release_len;
    ip.release_buf = kNone;
    if (i < C_)
      wake_out(i, now_);  // the output feeding channel i
    else
      wake_term(i - C_, now_);
  }
  ip.fan_id = kNone;
  for (int v = 0; v < V_; ++v) wake_head(i * V_ + v, now_);
}

void Sim::handle(int32_t ev) {
  if (ev < ni_)
    wake_out(ev, now_);
  else if (ev < 2 * ni_)
    release(ev - ni_);
  else
    wake_term(ev - 2 * ni_, now_);
}

// Messages whose tail arrived by now: phase (dst - src) mod T is sent for
// src and received for dst; both may move their window on.
void Sim::a2a_complete(int64_t now) {
  while (!a2a_pending_.empty() && std::get<0>(a2a_pending_.top()) <= now) {
    const int32_t src = std::get<1>(a2a_pending_.top()), dst = std::get<2>(a2a_pending_.top());
    a2a_pending_.pop();
    const int32_t k = (dst - src + T_) % T_;
    a2a_sent_[static_cast<size_t>(src) * a2a_words_ + (k >> 6)] |= uint64_t{1} << (k & 63);
    a2a_recv_[static_cast<size_t>(dst) * a2a_words_ + (k >> 6)] |= uint64_t{1} << (k & 63);
    refill_.push_back(src);
    refill_.push_back(dst);
  }
}

int64_t Sim::next_event_after(int64_t now) const {
  int64_t next = INT64_MAX;
  for (int64_t t = now + 1; t <= now + wmask_; ++t)
    if (!wheel_[t & wmask_].empty()) {
      next = t;
      break;
    }
  if (!far_.empty()) next = std::min(next, far_.top().first);
  return next;
}

// The end of every run, whatever its length (at cycle now): a cycle that
// closed was found when it closed; this last look over all buffers makes
// sure. Then the figures.
void Sim::finish(int64_t now) {
  now_ = now;
  if (in_network_ > 0) find_cycles();
  if (res_.deadlock || res_.stall) res_.packets_stuck = in_network_;
  if (res_.deadlock) res_.delivered_after_deadlock = delivered_all_ - delivered_at_deadlock_;
  res_.cycles = now;
  res_.vls = V_;
  const int64_t window = finite_ ? std::max<int64_t>(now, 1)
                                 : std::max<int64_t>(std::min(now, win_end_) - win_begin_, 1);
  const double denom = static_cast<double>(std::max(T_, 1)) * static_cast<double>(window);
  res_.throughput = static_cast<double>(delivered_credits_) / denom;
  res_.offered = static_cast<double>(generated_credits_) / denom;
  res_.mcast_throughput = static_cast<double>(mc_credits_) / denom;
  res_.mcast_offered = static_cast<double>(mc_generated_) / denom;
  res_.active_sources = count_active_sources();
  if (res_.active_sources > 0) {
    const double scale = static_cast<double>(T_) / res_.active_sources;
    res_.throughput_per_source = res_.throughput * scale;
    res_.offered_per_source = res_.offered * scale;
  }
  res_.source_throughput.resize(T_);
  for (int32_t t = 0; t < T_; ++t)
    res_.source_throughput[t] = static_cast<double>(credits_by_src_[t]) / window;
  if (res_.packets_measured) {
    res_.latency_avg = static_cast<double>(lat_sum_) / res_.packets_measured;
    const int64_t want = (res_.packets_measured * 99 + 99) / 100;  // ceil(0.99 n)
    int64_t seen = 0;
    for (size_t l = 0; l < kHistSize; ++l) {
      seen += hist_[l];
      if (seen >= want) {
        res_.latency_p99 = l == kHistSize - 1 ? res_.latency_max : static_cast<double>(l);
        break;
      }
    }
  }
}

Result Sim::run() {
  setup();
  const int64_t cap = finite_ ? std::max<int64_t>(win_end_, int64_t{1} << 40) : win_end_;
  // Rate traffic draws random numbers for every terminal in every cycle.
  const bool every_cycle = c_.traffic != Traffic::kAlltoall && c_.load > 0 && T_ >= 2;
  int64_t now = 0, last_progress = -1;
  while (now < cap) {
    now_ = now;
    if (c_.progress && (now >> 12) != (last_progress >> 12)) {
      last_progress = now;
      c_.progress(finite_ ? delivered_all_ : now, progress_total_);
    }
    while (!far_.empty() && far_.top().first <= now) {
      const int32_t ev = far_.top().second;
      far_.pop();
      handle(ev);
    }
    std::vector<int32_t> &bucket = wheel_[now & wmask_];
    for (size_t k = 0; k < bucket.size(); ++k) handle(bucket[k]);
    bucket.clear();
    if (pairwise_) a2a_complete(now);
    generate(now);
    inject(now);
    dirty_term_.clear();
    arbitrate(now);
    dirty_out_.clear();
    refill_.swap(refill_next_);
    // Nothing moved for stall_ cycles: locked up behind a deadlock found
    // before (or by this last look), else a stall.
    if (in_network_ > 0 && now - last_move_ >= stall_) {
      find_cycles();
      if (!res_.deadlock) {
        res_.stall = true;
        res_.stall_since = last_move_;
        res_.stall_at = now;
      }
      break;
    }
    // A storm never ends by itself: a finished run stops stall_ cycles on.
    if (finite_ && res_.storm && now >= res_.storm_at + stall_) break;
    if (finite_ && outstanding_ == 0 && next_msg_ == msgs_.size() &&
        (c_.traffic != Traffic::kAlltoall || a2a_done_ == T_)) {
      // The run ends when the last tail has arrived.
      res_.completed = true;
      now = std::max(now + 1, last_done_);
      break;
    }
    // The next cycle in which something can happen.
    if (every_cycle || pending_drops_ || !refill_.empty()) {
      ++now;
      continue;
    }
    int64_t next = next_event_after(now);
    if (next_msg_ < msgs_.size()) next = std::min(next, std::max(now + 1, msgs_[next_msg_].time));
    if (!a2a_pending_.empty())
      next = std::min(next, std::max(now + 1, std::get<0>(a2a_pending_.top())));
    if (in_network_ > 0) next = std::min(next, std::max(now + 1, last_move_ + stall_));
    if (finite_ && res_.storm) next = std::min(next, std::max(now + 1, res_.storm_at + stall_));
    now = std::min(next, cap);
  }
  finish(now);
  return res_;
}

}  // namespace

namespace {
// The words of --traffic; kFixed (the tests' own destinations) has a name
// for reports but is not a pattern one can ask for.
constexpr EnumName<Traffic> kTrafficNames[] = {
    {Traffic::kUniform, "uniform"},   {Traffic::kTranspose, "transpose"},
    {Traffic::kBitrev, "bitrev"},     {Traffic::kShuffle, "shuffle"},
    {Traffic::kReverse, "reverse"},   {Traffic::kHotspot, "hotspot"},
    {Traffic::kAlltoall, "alltoall"}, {Traffic::kBroadcast, "broadcast"},
    {Traffic::kFixed, "fixed"},
};
}  // namespace

bool parse_traffic(const std::string &name, Traffic &t) {
  Traffic v;
  if (!parse_enum(kTrafficNames, name, v) || v == Traffic::kFixed) return false;
  t = v;
  return true;
}

const char *traffic_name(Traffic t) {
  return enum_name(kTrafficNames, t);
}

int32_t permutation_dest(Traffic t, int32_t i, int32_t n) {
  if (n <= 1) return i;
  if (t == Traffic::kReverse) return n - 1 - i;
  const int b = bits_for(n);
  uint32_t x = static_cast<uint32_t>(i);
  do {
    x = bit_perm(t, x, b);
  } while (x >= static_cast<uint32_t>(n));
  return static_cast<int32_t>(x);
}

int64_t min_stall_cycles(const Config &c) {
  return 1 + int64_t{c.switch_latency} + (std::max(64, c.mtu) + 63) / 64;
}

int64_t stall_cycles(const Config &c) {
  return c.stall_cycles > 0 ? c.stall_cycles : std::max<int64_t>(5000, min_stall_cycles(c));
}

Result simulate(const Fabric &f, const Routing &r, const Config &c) {
  Sim s(f, r, c);
  return s.run();
}

std::vector<double> sweep_loads(double lo, double hi, double step) {
  std::vector<double> v;
  if (step <= 0 || lo > hi + step * 1e-3) return v;
  const int64_t n = static_cast<int64_t>(std::floor((hi - lo) / step + 1e-3));
  for (int64_t i = 0; i <= n; ++i)
    v.push_back(std::round((lo + static_cast<double>(i) * step) * 1e9) / 1e9);
  return v;
}

namespace {
// The median of v (the mean of the middle two for an even count); v not empty.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
}  // namespace

Sweep sweep(const Fabric &f, const Routing &r, const Config &c, const std::vector<double> &loads,
            const std::function<void(size_t, size_t)> &progress) {
  Sweep s;
  Config pc = c;
  std::vector<double> plateau, per_source;  // points from the saturation load on
  for (size_t i = 0; i < loads.size(); ++i) {
    if (progress) progress(i, loads.size());
    pc.load = loads[i];
    SweepPoint p{loads[i], simulate(f, r, pc)};
    const Result &res = p.result;
    if (res.deadlock || res.stall || res.storm) {
      s.deadlock = res.deadlock;
      s.stall = res.stall;
      s.storm = res.storm;
      if (s.saturation_load < 0) s.saturation_load = p.load;
      s.points.push_back(std::move(p));
      break;
    }
    s.saturation_throughput_max = std::max(s.saturation_throughput_max, res.throughput);
    if (s.saturation_load < 0 && res.throughput < kSaturationRatio * res.offered)
      s.saturation_load = p.load;
    if (s.saturation_load >= 0) {
      plateau.push_back(res.throughput);
      per_source.push_back(res.throughput_per_source);
    }
    s.points.push_back(std::move(p));
  }
  s.plateau_points = static_cast<int>(plateau.size());
  if (!plateau.empty()) {
    s.saturation_throughput = median(plateau);
    s.saturation_throughput_per_source = median(per_source);
  }
  return s;
}

}  // namespace keiro::sim

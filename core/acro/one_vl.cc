// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Routes for one VL (core/acro/one_vl.h).
#include "core/acro/one_vl.h"

#include <string>
#include <utility>

#include "core/acro/switch_lids.h"
#include "core/layers/acro.h"
#include "core/minimal/forwarding_index.h"
#include "core/nue/engine.h"
#include "core/nue/nue.h"
#include "core/routing.h"

namespace keiro::acro {

namespace {

// Nue's routes on one layer as destination trees; false when Nue fails or
// ACRO needs more than one layer on them.
bool nue_trees(const Fabric &f, int threads, minimal::DestTrees &out) {
  nue::NueOptions o;
  o.layers = 1;
  o.order_attempts = nue::one_vl_order_attempts(f);
  o.threads = threads;
  nue::NueResult r;
  std::string err;
  if (!nue::route(f, o, r, err)) return false;
  Routing lfts;
  lfts.reset(f, Routing::SlScope::kPerDestination);
  nue::write_tables(f, r, lfts);
  if (!minimal::trees_from_lfts(f, lfts, out, err)) return false;
  AcroResult layers;
  return assign(f, out, AcroOptions{}, layers, err) && layers.num_layers <= 1;
}

}  // namespace

bool one_vl_routes(const Fabric &f, const minimal::BalancedOptions &bo, int threads,
                   minimal::DestTrees &out, OneVlChoice &res, std::string &err) {
  if (!updown_balanced(f, bo, out, err)) return false;
  res.updown_efi = minimal::forwarding_index(f, out).max;
  minimal::DestTrees nt;
  if (!nue_trees(f, threads, nt)) return true;
  res.nue_efi = minimal::forwarding_index(f, nt).max;
  if (res.nue_efi < res.updown_efi) {
    out = std::move(nt);
    res.nue = true;
  }
  return true;
}

}  // namespace keiro::acro

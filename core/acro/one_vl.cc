// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Routes for one VL (core/acro/one_vl.h).
#include "core/acro/one_vl.h"

#include <string>
#include <utility>

#include "core/acro/switch_lids.h"
#include "core/layers/acro.h"
#include "core/minimal/forwarding_index.h"
#include "core/nue/engine.h"

namespace keiro::acro {

namespace {

// Nue's routes on one layer (nue::one_layer_trees()); false when Nue fails
// or ACRO needs more than one layer on them.
bool nue_trees(const Fabric &f, int threads, minimal::DestTrees &out) {
  std::string err;
  if (!nue::one_layer_trees(f, threads, out, err)) return false;
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

// DecompTest.cpp - the decomposition and the exchange schedule
// (runtime/dist/include/stencilc/dist/decomp.h) for many grid and rank
// shapes: extents, remainders, neighbours, halo regions, corners and the
// periodic wrap.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <tuple>

#include "stencilc/dist/decomp.h"

using namespace stencilc::dist;

namespace {

Layout layout(int dims, std::initializer_list<long long> global, std::initializer_list<int> grid,
              int halo, bool periodic = false) {
  Layout l;
  l.dims = dims;
  std::copy(global.begin(), global.end(), l.global);
  std::copy(grid.begin(), grid.end(), l.grid);
  l.halo = halo;
  l.periodic = periodic;
  return l;
}

int ranksOf(const Layout &l) {
  int n = 1;
  for (int a = 0; a < l.dims; ++a) {
    n *= l.grid[a];
  }
  return n;
}

std::vector<Decomposition> all(const Layout &l) {
  std::vector<Decomposition> ds(ranksOf(l));
  for (int r = 0; r < ranksOf(l); ++r) {
    std::string error;
    EXPECT_TRUE(Decomposition::create(l, r, ds[r], error)) << error;
  }
  return ds;
}

/// The global point of a local one, per axis, wrapped where periodic;
/// -1 outside a non-periodic grid.
long long globalOf(const Decomposition &d, int axis, long long local) {
  long long g = d.ownedStart(axis) - d.ghost(axis, 0) + local;
  const long long n = d.layout().global[axis];
  if (d.layout().periodic) {
    return ((g % n) + n) % n;
  }
  return g < 0 || g >= n ? -1 : g;
}

} // namespace

TEST(DistDecomp, RemaindersGoToTheFirstBlocks) {
  EXPECT_EQ(blockStart(10, 3, 0), 0);
  EXPECT_EQ(blockStart(10, 3, 1), 4);
  EXPECT_EQ(blockStart(10, 3, 2), 7);
  EXPECT_EQ(blockStart(10, 3, 3), 10);
  EXPECT_EQ(blockStart(7, 7, 7), 7);
}

TEST(DistDecomp, BlocksTileTheGridExactlyOnce) {
  for (int dims = 1; dims <= 3; ++dims) {
    for (int p0 = 1; p0 <= 4; ++p0) {
      for (int p1 = 1; p1 <= (dims > 1 ? 3 : 1); ++p1) {
        for (int p2 = 1; p2 <= (dims > 2 ? 2 : 1); ++p2) {
          Layout l = layout(dims, {13, 11, 9}, {p0, p1, p2}, 2);
          std::vector<int> hits(13 * 11 * 9, 0);
          for (const Decomposition &d : all(l)) {
            for (long long z = 0; z < d.owned(0); ++z)
              for (long long y = 0; y < (dims > 1 ? d.owned(1) : 1); ++y)
                for (long long x = 0; x < (dims > 2 ? d.owned(2) : 1); ++x)
                  ++hits[((d.ownedStart(0) + z) * 11 + (dims > 1 ? d.ownedStart(1) + y : 0)) * 9 +
                         (dims > 2 ? d.ownedStart(2) + x : 0)];
          }
          long long expected = 13 * (dims > 1 ? 11 : 1) * (dims > 2 ? 9 : 1), seen = 0;
          for (int h : hits) {
            EXPECT_LE(h, 1);
            seen += h;
          }
          EXPECT_EQ(seen, expected) << dims << "D grid " << p0 << "x" << p1 << "x" << p2;
        }
      }
    }
  }
}

TEST(DistDecomp, GhostsOnlyWhereANeighbourIs) {
  Layout l = layout(3, {20, 20, 20}, {3, 2, 1}, 2);
  std::vector<Decomposition> ds = all(l);
  const Decomposition &mid = ds[rankOf(l, std::array<int, 3>{1, 0, 0}.data())];
  EXPECT_EQ(mid.ghost(0, 0), 2);
  EXPECT_EQ(mid.ghost(0, 1), 2);
  EXPECT_EQ(mid.ghost(1, 0), 0); // a global edge
  EXPECT_EQ(mid.ghost(1, 1), 2);
  EXPECT_EQ(mid.ghost(2, 0), 0); // one rank along x: no ghosts
  EXPECT_EQ(mid.local(0), 7 + 4);
  EXPECT_EQ(mid.local(1), 10 + 2);
  EXPECT_EQ(mid.local(2), 20);
  EXPECT_EQ(mid.neighbour(0, 0), rankOf(l, std::array<int, 3>{0, 0, 0}.data()));
  EXPECT_EQ(mid.neighbour(0, 1), rankOf(l, std::array<int, 3>{2, 0, 0}.data()));
  EXPECT_EQ(mid.neighbour(1, 0), -1);
  EXPECT_FALSE(mid.slabs());
  EXPECT_TRUE(all(layout(3, {20, 20, 20}, {4, 1, 1}, 2))[0].slabs());
}

TEST(DistDecomp, PeriodicWrapsToTheFarRank) {
  Layout l = layout(2, {12, 9}, {3, 1}, 1, true);
  std::vector<Decomposition> ds = all(l);
  EXPECT_EQ(ds[0].neighbour(0, 0), 2);
  EXPECT_EQ(ds[2].neighbour(0, 1), 0);
  EXPECT_EQ(ds[0].ghost(0, 0), 1);
  EXPECT_EQ(ds[0].neighbour(1, 0), -1); // one rank along x: the run wraps itself
  // Two ranks: both neighbours are the other rank, told apart by the tags.
  std::vector<Decomposition> two = all(layout(1, {8}, {2}, 1, true));
  std::vector<Phase> s = two[0].schedule();
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].messages.size(), 2u);
  EXPECT_EQ(s[0].messages[0].peer, 1);
  EXPECT_EQ(s[0].messages[1].peer, 1);
  EXPECT_NE(s[0].messages[0].recvTag, s[0].messages[1].recvTag);
}

TEST(DistDecomp, RefusesBlocksThinnerThanTheHalo) {
  Decomposition d;
  std::string error;
  EXPECT_FALSE(Decomposition::create(layout(3, {16, 64, 64}, {5, 1, 1}, 4), 0, d, error));
  EXPECT_EQ(error, "5 ranks along z cannot split its 16 points: a block of 3 is thinner than "
                   "the halo of 4 (the radius times the steps between exchanges)");
  EXPECT_TRUE(Decomposition::create(layout(3, {16, 64, 64}, {4, 1, 1}, 4), 0, d, error));
  EXPECT_FALSE(Decomposition::create(layout(2, {64, 7}, {1, 4}, 2), 3, d, error));
  EXPECT_NE(error.find("along x"), std::string::npos);
  Layout fixed = layout(1, {6}, {2}, 1);
  fixed.minSize = 5; // fixed boundary of radius 2: a local array of 4 is too small
  EXPECT_FALSE(Decomposition::create(fixed, 0, d, error));
  EXPECT_NE(error.find("fewer than the stencil's minimum of 5"), std::string::npos);
  EXPECT_FALSE(Decomposition::create(layout(2, {8, 8}, {2, 2}, 1), 4, d, error));
  EXPECT_FALSE(Decomposition::create(layout(2, {8, 0}, {1, 1}, 1), 0, d, error));
}

// Every received point is the sender's owned point of the same global
// coordinates, and after the phases every ghost point of the local array
// (faces, edges and corners) has been received exactly once.
TEST(DistDecomp, ScheduleFillsEveryGhostFromItsOwner) {
  for (bool periodic : {false, true}) {
    for (auto grid :
         {std::array<int, 3>{2, 2, 2}, std::array<int, 3>{3, 1, 2}, std::array<int, 3>{1, 3, 1},
          std::array<int, 3>{4, 1, 1}, std::array<int, 3>{2, 3, 2}}) {
      for (int halo : {1, 2}) {
        Layout l = layout(3, {9, 10, 7}, {grid[0], grid[1], grid[2]}, halo, periodic);
        std::vector<Decomposition> ds = all(l);
        // Per rank: which local points hold their true value so far.
        std::vector<std::set<std::tuple<long long, long long, long long>>> valid(ds.size());
        for (const Decomposition &d : ds) {
          Box o = d.ownedBox();
          for (long long z = 0; z < o.size[0]; ++z)
            for (long long y = 0; y < o.size[1]; ++y)
              for (long long x = 0; x < o.size[2]; ++x)
                valid[d.rank()].insert({o.lo[0] + z, o.lo[1] + y, o.lo[2] + x});
        }
        for (int axis = 0; axis < 3; ++axis) {
          std::vector<std::set<std::tuple<long long, long long, long long>>> next = valid;
          for (const Decomposition &d : ds) {
            for (const Phase &phase : d.schedule()) {
              if (phase.axis != axis)
                continue;
              for (const Message &m : phase.messages) {
                const Decomposition &peer = ds[m.peer];
                // The peer's message to us: the one whose send tag we expect.
                const Message *sent = nullptr;
                for (const Phase &pp : peer.schedule())
                  for (const Message &pm : pp.messages)
                    if (pm.peer == d.rank() && pm.sendTag == m.recvTag)
                      sent = &pm;
                ASSERT_NE(sent, nullptr);
                ASSERT_EQ(sent->send.count(), m.recv.count());
                for (long long z = 0; z < m.recv.size[0]; ++z)
                  for (long long y = 0; y < m.recv.size[1]; ++y)
                    for (long long x = 0; x < m.recv.size[2]; ++x) {
                      const long long r[3] = {m.recv.lo[0] + z, m.recv.lo[1] + y, m.recv.lo[2] + x};
                      const long long s[3] = {sent->send.lo[0] + z, sent->send.lo[1] + y,
                                              sent->send.lo[2] + x};
                      for (int a = 0; a < 3; ++a)
                        ASSERT_EQ(globalOf(d, a, r[a]), globalOf(peer, a, s[a]));
                      ASSERT_TRUE(valid[peer.rank()].count({s[0], s[1], s[2]}))
                          << "rank " << peer.rank() << " sends a point it does not hold yet";
                      ASSERT_FALSE(next[d.rank()].count({r[0], r[1], r[2]}))
                          << "a point received twice";
                      next[d.rank()].insert({r[0], r[1], r[2]});
                    }
              }
            }
          }
          valid = next;
        }
        for (const Decomposition &d : ds) {
          EXPECT_EQ(static_cast<long long>(valid[d.rank()].size()), d.localPoints())
              << "rank " << d.rank() << " grid " << grid[0] << grid[1] << grid[2]
              << (periodic ? " periodic" : "");
        }
      }
    }
  }
}

// A pass stores what the owned block needs the steps after it: the owned
// planes widened by radius x the steps to come at each side that has
// ghosts, clipped to the local array, and everything along an axis with
// one rank.
TEST(DistDecomp, PlainPassesStoreTheOwnedBlockWidenedByTheStepsToCome) {
  // 3 ranks of slabs over 40 planes (14, 13, 13), halo 6: radius 1, T = 3,
  // two passes an exchange.
  const std::vector<Decomposition> ds = all(layout(3, {40, 9, 9}, {3, 1, 1}, 6));
  const RangedPass firstOfTwo = plainPass(ds[1], 1, 3), last = plainPass(ds[1], 1, 0);
  EXPECT_EQ(firstOfTwo.viewBegin, 0);
  EXPECT_EQ(firstOfTwo.viewEnd, 6 + 13 + 6);
  EXPECT_EQ(firstOfTwo.storeBegin, 3);
  EXPECT_EQ(firstOfTwo.storeEnd, 6 + 13 + 3);
  EXPECT_EQ(last.storeBegin, 6);
  EXPECT_EQ(last.storeEnd, 6 + 13);
  // The first rank has no ghosts below: its owned planes start the array.
  const RangedPass low = plainPass(ds[0], 1, 3);
  EXPECT_EQ(low.storeBegin, 0);
  EXPECT_EQ(low.storeEnd, 14 + 3);
  EXPECT_EQ(low.viewEnd, 14 + 6);
  // An axis with one rank: the whole array, whatever the steps to come.
  const std::vector<Decomposition> rows = all(layout(2, {17, 40}, {1, 4}, 2));
  const RangedPass whole = plainPass(rows[2], 2, 5);
  EXPECT_EQ(whole.storeBegin, 0);
  EXPECT_EQ(whole.storeEnd, 17);
  // Wider than the array: clipped.
  const RangedPass clipped = storedRange(10, 2, 8, 3, 4);
  EXPECT_EQ(clipped.storeBegin, 0);
  EXPECT_EQ(clipped.storeEnd, 10);
}

// The overlapped pass stores every owned plane exactly once (the interior
// all but a halo beside each side with a neighbour, each band the middle
// halo of its planes), and each band is the halo of ghost planes and twice
// the halo of owned planes beside them.
TEST(DistDecomp, OverlapPassesStoreEveryOwnedPlaneOnce) {
  for (bool periodic : {false, true}) {
    for (int ranks : {2, 3, 4}) {
      for (int halo : {1, 2, 3}) {
        const Layout l = layout(3, {29, 5, 7}, {ranks, 1, 1}, halo, periodic);
        for (const Decomposition &d : all(l)) {
          if (d.owned(0) < 2 * halo) {
            continue;
          }
          const long long local = d.local(0), first = d.ghost(0, 0);
          std::vector<int> stored(static_cast<std::size_t>(local), 0);
          const std::vector<RangedPass> passes = overlapPasses(d);
          for (const RangedPass &p : passes) {
            ASSERT_GE(p.viewBegin, 0);
            ASSERT_LE(p.viewEnd, local);
            ASSERT_GT(p.storeCount(), 0);
            for (long long i = p.viewBegin + p.storeBegin; i < p.viewBegin + p.storeEnd; ++i) {
              ++stored[static_cast<std::size_t>(i)];
            }
          }
          for (long long i = 0; i < local; ++i) {
            const bool owned = i >= first && i < first + d.owned(0);
            EXPECT_EQ(stored[static_cast<std::size_t>(i)], owned ? 1 : 0)
                << "plane " << i << " of rank " << d.rank() << " of " << ranks;
          }
          const int bands = (d.neighbour(0, 0) >= 0) + (d.neighbour(0, 1) >= 0);
          ASSERT_GE(passes.size(), static_cast<std::size_t>(bands));
          for (std::size_t k = passes.size() - bands; k < passes.size(); ++k) {
            EXPECT_EQ(passes[k].viewCount(), 3 * halo);
            EXPECT_EQ(passes[k].storeBegin, halo);
            EXPECT_EQ(passes[k].storeEnd, 2 * halo);
            EXPECT_TRUE(passes[k].viewBegin == 0 || passes[k].viewEnd == local);
          }
          // The interior reads the owned planes only, and leaves at least a
          // halo of them unstored beside each side with a neighbour.
          if (passes.size() > static_cast<std::size_t>(bands)) {
            EXPECT_EQ(passes[0].viewBegin, first);
            EXPECT_EQ(passes[0].viewCount(), d.owned(0));
            EXPECT_GE(passes[0].storeBegin, d.neighbour(0, 0) >= 0 ? halo : 0);
          }
        }
      }
    }
  }
}

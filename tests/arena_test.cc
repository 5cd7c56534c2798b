// Arena allocations must not overlap, must stay intact until the arena
// dies, and must be aligned when asked.
#include "util/arena.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "util/random.h"

namespace leveldb {
namespace {

constexpr size_t kAlign = alignof(void*) > 8 ? alignof(void*) : 8;

TEST(ArenaTest, EmptyArenaUsesNoMemory) {
  Arena arena;
  EXPECT_EQ(0u, arena.MemoryUsage());
}

TEST(ArenaTest, ContentsSurviveManyAllocations) {
  Arena arena;
  Random rnd(301);
  std::vector<std::pair<size_t, char*>> allocated;
  size_t total = 0;
  for (int i = 0; i < 100000; ++i) {
    size_t size;
    if (i % (100000 / 10) == 0) {
      size = i;  // Occasionally a large request (own block).
    } else {
      size = rnd.OneIn(4000)
                 ? rnd.Uniform(6000)
                 : (rnd.OneIn(10) ? rnd.Uniform(100) : rnd.Uniform(20));
    }
    if (size == 0) size = 1;
    char* p =
        rnd.OneIn(10) ? arena.AllocateAligned(size) : arena.Allocate(size);
    // Fill with a pattern derived from the allocation's index.
    for (size_t b = 0; b < size; ++b) p[b] = static_cast<char>(i % 256);
    total += size;
    allocated.emplace_back(size, p);
    EXPECT_GE(arena.MemoryUsage(), total);
  }
  for (size_t i = 0; i < allocated.size(); ++i) {
    const size_t size = allocated[i].first;
    const char* p = allocated[i].second;
    for (size_t b = 0; b < size; ++b) {
      ASSERT_EQ(static_cast<int>(i % 256), static_cast<uint8_t>(p[b]))
          << "allocation " << i << " byte " << b;
    }
  }
  // Overhead stays modest: blocks are 4 KiB and large requests exact-size.
  EXPECT_LE(arena.MemoryUsage(), total * 3 / 2 + 64 * 1024);
}

TEST(ArenaTest, AlignedAllocationsAreAligned) {
  Arena arena;
  Random rnd(7);
  for (int i = 0; i < 10000; ++i) {
    // Odd-sized unaligned allocations in between push the cursor around.
    arena.Allocate(1 + rnd.Uniform(13));
    size_t size = 1 + rnd.Uniform(i % 100 == 0 ? 5000 : 64);
    char* p = arena.AllocateAligned(size);
    ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(p) & (kAlign - 1)) << i;
    std::memset(p, 0xab, size);
  }
}

TEST(ArenaTest, LargeRequestKeepsCurrentBlock) {
  Arena arena;
  arena.Allocate(10);
  for (int i = 0; i < 3; ++i) arena.Allocate(1000);
  char* first = arena.Allocate(10);  // 1076 bytes left in this block.
  const size_t after_first = arena.MemoryUsage();
  // Too big for the rest of the block and over a quarter block: it gets its
  // own exact-size block and the current block stays in use.
  char* big = arena.Allocate(2000);
  const size_t after_big = arena.MemoryUsage();
  EXPECT_GE(after_big - after_first, 2000u);
  EXPECT_LT(after_big - after_first, 4096u);
  // The next small allocation still comes from the first block.
  char* second = arena.Allocate(10);
  EXPECT_EQ(first + 10, second);
  EXPECT_EQ(after_big, arena.MemoryUsage());
  EXPECT_NE(nullptr, big);
}

TEST(ArenaTest, SmallAllocationsAreContiguous) {
  Arena arena;
  char* a = arena.Allocate(5);
  char* b = arena.Allocate(7);
  char* c = arena.Allocate(1);
  EXPECT_EQ(a + 5, b);
  EXPECT_EQ(b + 7, c);
  // One 4 KiB block (plus bookkeeping) so far.
  EXPECT_GE(arena.MemoryUsage(), 4096u);
  EXPECT_LT(arena.MemoryUsage(), 4096u + 64);
}

}  // namespace
}  // namespace leveldb

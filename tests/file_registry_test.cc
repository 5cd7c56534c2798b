// FileRegistry alone: one record per file through its known, handed-out,
// registered and retired states and its forgetting, and the live set.
#include "elastic/file_registry.h"

#include <algorithm>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "table/elastic/filter_group.h"

namespace leveldb {
namespace {

std::shared_ptr<TableFilterGroups> NewGroups() {
  return std::make_shared<TableFilterGroups>(ElasticIndex(), 0);
}

InheritedHotness HotnessOf(uint64_t absent_probes, int units) {
  InheritedHotness h;
  h.segments.resize(2);
  h.segments[0].absent_probes = absent_probes;
  h.units.assign(2, units);
  return h;
}

const FileRecord* FindRegistered(const FileRegistry& registry,
                                 uint64_t number) {
  const FileRecord* record = registry.Find(number);
  return record != nullptr && record->registered() ? record : nullptr;
}

const FileRecord* FindAttached(const FileRegistry& registry, uint64_t number) {
  const FileRecord* record = registry.Find(number);
  return record != nullptr && record->attached() ? record : nullptr;
}

std::vector<uint64_t> Registered(const FileRegistry& registry) {
  std::vector<uint64_t> files;
  registry.ForEachRegistered([&files](uint64_t number, const FileRecord&) {
    files.push_back(number);
  });
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FileRegistryTest, UnknownFilesHaveNoRecord) {
  FileRegistry registry;
  EXPECT_EQ(nullptr, registry.Find(7));
  EXPECT_EQ(nullptr, FindRegistered(registry, 7));
  EXPECT_EQ(nullptr, FindAttached(registry, 7));
  EXPECT_FALSE(registry.TakeSeed(7).has_value());
  std::shared_ptr<TableFilterGroups> none;
  EXPECT_FALSE(registry.Forget(7, &none));
  EXPECT_EQ(nullptr, none);
  EXPECT_EQ(0u, registry.registered_count());
  EXPECT_FALSE(registry.live_set_reported());
}

TEST(FileRegistryTest, RegisteringOnceWithGroupsAndSegments) {
  FileRegistry registry;
  auto groups = NewGroups();
  ASSERT_TRUE(registry.Register(7, groups));
  EXPECT_FALSE(registry.Register(7, NewGroups()));  // the first one stays
  const FileRecord* record = FindAttached(registry, 7);
  ASSERT_NE(nullptr, record);
  EXPECT_EQ(groups, record->groups);
  EXPECT_EQ(0u, record->segments);

  registry.SetSegments(7, 3);
  EXPECT_EQ(3u, record->segments);
  EXPECT_EQ(std::vector<uint64_t>({7}), Registered(registry));
  EXPECT_EQ(1u, registry.registered_count());
}

TEST(FileRegistryTest, FilesWithoutGroupsAreRegisteredButNotAttached) {
  FileRegistry registry;
  ASSERT_TRUE(registry.Register(8, nullptr));
  EXPECT_NE(nullptr, FindRegistered(registry, 8));
  EXPECT_EQ(nullptr, FindAttached(registry, 8));
  EXPECT_EQ(std::vector<uint64_t>({8}), Registered(registry));

  // Groups dropped after registration (no room for the locator): the same.
  auto groups = NewGroups();
  ASSERT_TRUE(registry.Register(9, groups));
  registry.SetSegments(9, 2);
  registry.DropGroups(9);
  const FileRecord* record = FindRegistered(registry, 9);
  ASSERT_NE(nullptr, record);
  EXPECT_EQ(nullptr, record->groups);
  EXPECT_EQ(0u, record->segments);  // its hotness is no longer known
  EXPECT_EQ(nullptr, FindAttached(registry, 9));

  // The groups wait for room, and come back once.
  EXPECT_EQ(std::vector<uint64_t>({9}), registry.Waiting());
  EXPECT_EQ(groups, registry.Readmit(9));
  EXPECT_EQ(groups, FindAttached(registry, 9)->groups);
  EXPECT_TRUE(registry.Waiting().empty());
  EXPECT_EQ(nullptr, registry.Readmit(9));
  EXPECT_EQ(nullptr, registry.Readmit(8));  // registered without groups

  // A waiting file that retires or is forgotten waits no more.
  registry.DropGroups(9);
  ASSERT_TRUE(registry.Register(10, NewGroups()));
  registry.DropGroups(10);
  EXPECT_EQ(2u, registry.Waiting().size());
  std::shared_ptr<TableFilterGroups> given_up;
  EXPECT_TRUE(registry.Retire(9, &given_up));
  EXPECT_EQ(nullptr, given_up);  // never published: nothing to retire
  EXPECT_TRUE(registry.Forget(10, &given_up));
  EXPECT_EQ(nullptr, given_up);
  EXPECT_TRUE(registry.Waiting().empty());
}

TEST(FileRegistryTest, ASeededFileRegistersAndTakesItsSeedOnce) {
  FileRegistry registry;
  ASSERT_TRUE(registry.Seed(5, HotnessOf(10, 2)));
  EXPECT_FALSE(registry.Seed(5, HotnessOf(99, 6)));  // the first seed stays
  const FileRecord* record = registry.Find(5);
  ASSERT_NE(nullptr, record);
  ASSERT_TRUE(record->seed.has_value());
  EXPECT_EQ(10u, record->seed->segments[0].absent_probes);
  EXPECT_EQ(nullptr, FindRegistered(registry, 5));

  ASSERT_TRUE(registry.Register(5, NewGroups()));
  std::optional<InheritedHotness> seed = registry.TakeSeed(5);
  ASSERT_TRUE(seed.has_value());
  EXPECT_TRUE(*seed == HotnessOf(10, 2));
  EXPECT_FALSE(registry.TakeSeed(5).has_value());
  registry.SetSegments(5, 2);
  // Its own history wins from now on, registered or not.
  EXPECT_FALSE(registry.Seed(5, HotnessOf(1, 1)));
  std::shared_ptr<TableFilterGroups> retired;
  EXPECT_TRUE(registry.Retire(5, &retired));
  EXPECT_FALSE(registry.Seed(5, HotnessOf(1, 1)));
  EXPECT_FALSE(registry.Find(5)->seed.has_value());
}

TEST(FileRegistryTest, ARegisteredFileWithoutGroupsKeepsItsSeed) {
  FileRegistry registry;
  ASSERT_TRUE(registry.Seed(6, HotnessOf(3, 1)));
  ASSERT_TRUE(registry.Register(6, nullptr));
  EXPECT_TRUE(registry.Find(6)->seed.has_value());
  EXPECT_FALSE(registry.Seed(6, HotnessOf(4, 1)));  // registered
}

TEST(FileRegistryTest, ARetiredFileRefusesRegistration) {
  FileRegistry registry;
  auto groups = NewGroups();
  ASSERT_TRUE(registry.Register(4, groups));
  registry.SetSegments(4, 2);
  registry.SetLevel(4, 2);
  std::shared_ptr<TableFilterGroups> returned;
  EXPECT_TRUE(registry.Retire(4, &returned));
  EXPECT_EQ(groups, returned);
  EXPECT_EQ(nullptr, FindRegistered(registry, 4));
  EXPECT_EQ(0u, registry.registered_count());
  EXPECT_FALSE(registry.Register(4, NewGroups()));
  EXPECT_FALSE(registry.Register(4, nullptr));
  EXPECT_EQ(nullptr, FindRegistered(registry, 4));

  // What is known about it stays until it is forgotten.
  const FileRecord* record = registry.Find(4);
  ASSERT_NE(nullptr, record);
  EXPECT_EQ(FileState::kRetired, record->state);
  EXPECT_EQ(2u, record->segments);
  EXPECT_EQ(2, record->level.value_or(-1));
  EXPECT_EQ(nullptr, record->groups);

  // A file retired before it ever registered never registers either.
  EXPECT_FALSE(registry.Retire(11, &returned));
  EXPECT_FALSE(registry.Register(11, NewGroups()));
}

TEST(FileRegistryTest, ForgettingDropsEverything) {
  FileRegistry registry;
  auto groups = NewGroups();
  ASSERT_TRUE(registry.Seed(3, HotnessOf(1, 1)));
  registry.SetLevel(3, 1);
  ASSERT_TRUE(registry.ReplaceLiveSet({3}).empty());
  ASSERT_TRUE(registry.Register(3, groups));
  registry.SetSegments(3, 2);

  std::shared_ptr<TableFilterGroups> released;
  EXPECT_TRUE(registry.Forget(3, &released));
  EXPECT_EQ(groups, released);
  EXPECT_EQ(nullptr, registry.Find(3));
  EXPECT_EQ(0u, registry.registered_count());
  EXPECT_TRUE(Registered(registry).empty());

  // Retirement is forgotten too: the number may register afresh.
  registry.Retire(3, &released);
  registry.Forget(3, &released);
  auto again = NewGroups();
  ASSERT_TRUE(registry.Register(3, again));
  const FileRecord* record = FindAttached(registry, 3);
  ASSERT_NE(nullptr, record);
  EXPECT_NE(FileState::kRetired, record->state);
  EXPECT_FALSE(record->live);
  EXPECT_FALSE(record->level.has_value());
  EXPECT_FALSE(record->seed.has_value());
  EXPECT_EQ(0u, record->segments);
}

TEST(FileRegistryTest, SetLevelReportsChangesOnly) {
  FileRegistry registry;
  EXPECT_TRUE(registry.SetLevel(2, 0));  // first time, even at level 0
  EXPECT_FALSE(registry.SetLevel(2, 0));
  EXPECT_TRUE(registry.SetLevel(2, 3));
  EXPECT_EQ(3, registry.Find(2)->level.value_or(-1));
  // A level alone does not register the file.
  EXPECT_EQ(nullptr, FindRegistered(registry, 2));
  EXPECT_TRUE(registry.Register(2, nullptr));
}

TEST(FileRegistryTest, LiveUnregisteredFilesAreHandedOutOnce) {
  FileRegistry registry;
  EXPECT_TRUE(registry.HandOut(10).empty());
  registry.SetFileSize(1, 100);
  registry.SetFileSize(2, 200);
  registry.SetFileSize(3, 300);
  // 4 is live without a known size; 5 registered; 6 retired.
  registry.SetFileSize(5, 500);
  ASSERT_TRUE(registry.Register(5, nullptr));
  registry.SetFileSize(6, 600);
  std::shared_ptr<TableFilterGroups> released;
  registry.Retire(6, &released);
  registry.ReplaceLiveSet({1, 2, 3, 4, 5, 6});
  // Registered meanwhile: not handed out.
  ASSERT_TRUE(registry.Register(2, nullptr));

  std::vector<std::pair<uint64_t, uint64_t>> taken = registry.HandOut(1);
  ASSERT_EQ(1u, taken.size());
  std::vector<std::pair<uint64_t, uint64_t>> rest = registry.HandOut(10);
  taken.insert(taken.end(), rest.begin(), rest.end());
  std::sort(taken.begin(), taken.end());
  EXPECT_EQ((std::vector<std::pair<uint64_t, uint64_t>>{{1, 100}, {3, 300}}),
            taken);
  EXPECT_TRUE(registry.HandOut(10).empty());

  // Reported live again, still unregistered: never handed out twice.
  registry.ReplaceLiveSet({1, 3});
  EXPECT_TRUE(registry.HandOut(10).empty());
  // A new file is; a forgotten one is not.
  registry.SetFileSize(7, 700);
  registry.SetFileSize(8, 800);
  registry.ReplaceLiveSet({1, 3, 7, 8});
  registry.Forget(8, &released);
  EXPECT_EQ((std::vector<std::pair<uint64_t, uint64_t>>{{7, 700}}),
            registry.HandOut(10));
}

TEST(FileRegistryTest, ReplacingTheLiveSetNamesTheFilesThatLeft) {
  FileRegistry registry;
  EXPECT_TRUE(registry.ReplaceLiveSet({1, 2, 3}).empty());
  EXPECT_TRUE(registry.live_set_reported());
  EXPECT_TRUE(registry.Find(2)->live);
  ASSERT_TRUE(registry.Register(4, nullptr));  // not live yet
  EXPECT_FALSE(registry.Find(4)->live);

  std::vector<uint64_t> left = registry.ReplaceLiveSet({1, 4});
  std::sort(left.begin(), left.end());
  EXPECT_EQ(std::vector<uint64_t>({2, 3}), left);
  EXPECT_TRUE(registry.Find(1)->live);
  EXPECT_FALSE(registry.Find(2)->live);
  EXPECT_FALSE(registry.Find(3)->live);
  EXPECT_TRUE(registry.Find(4)->live);
  // Leaving the live set alone changes no other state.
  EXPECT_NE(FileState::kRetired, registry.Find(2)->state);
  EXPECT_NE(nullptr, FindRegistered(registry, 4));

  EXPECT_EQ(std::vector<uint64_t>({1, 4}), [&] {
    std::vector<uint64_t> l = registry.ReplaceLiveSet({});
    std::sort(l.begin(), l.end());
    return l;
  }());
}

}  // namespace
}  // namespace leveldb

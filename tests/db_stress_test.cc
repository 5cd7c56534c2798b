// db_stress's oracle (benchmarks/stress/expected_state.h), its
// fault-injecting Env (benchmarks/stress/fault_env.h) and its command line
// (benchmarks/stress/stress_config.h).

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "stress/expected_state.h"
#include "stress/fault_env.h"
#include "stress/stress_config.h"

namespace stress {
namespace {

std::string TestDir(const std::string& name) {
  std::string dir;
  leveldb::Env::Default()->GetTestDirectory(&dir);
  dir += "/db_stress_test_" + name;
  leveldb::Env::Default()->CreateDir(dir);
  return dir;
}

Found Present(uint32_t v) { return Found{true, v}; }
const Found kAbsent{false, 0};

KeyState Acked(uint32_t v, bool del) {
  KeyState s;
  s.acked = s.top = v;
  s.acked_del = del;
  return s;
}

TEST(ExpectedStateTest, SurvivesUnmapAndRejectsOtherKeyCounts) {
  const std::string path = TestDir("oracle") + "/oracle";
  std::remove(path.c_str());
  std::unique_ptr<ExpectedState> st;
  ASSERT_EQ("", ExpectedState::Open(path, 100, &st));
  EXPECT_TRUE(st->Load(7).acked_del);  // never written
  KeyState s;
  s.acked = 5;
  s.acked_del = false;
  s.top = 9;
  s.maybe = s.maybe_del = true;
  st->Store(7, s);
  st.reset();
  ASSERT_EQ("", ExpectedState::Open(path, 100, &st));
  const KeyState back = st->Load(7);
  EXPECT_EQ(5u, back.acked);
  EXPECT_EQ(9u, back.top);
  EXPECT_FALSE(back.acked_del);
  EXPECT_TRUE(back.maybe && back.maybe_del);
  st.reset();
  EXPECT_NE("", ExpectedState::Open(path, 101, &st));
}

TEST(OracleCheckTest, ExactAllowsOnlyTheAcknowledgedStateOrPendingWrites) {
  EXPECT_EQ("", CheckExact(Acked(3, false), Present(3)));
  EXPECT_NE("", CheckExact(Acked(3, false), Present(2)));
  EXPECT_NE("", CheckExact(Acked(3, false), kAbsent));
  EXPECT_EQ("", CheckExact(Acked(3, true), kAbsent));
  EXPECT_NE("", CheckExact(Acked(3, true), Present(3)));
  KeyState pending = Acked(3, false);
  pending.top = 5;
  pending.maybe = true;
  EXPECT_EQ("", CheckExact(pending, Present(5)));
  EXPECT_NE("", CheckExact(pending, Present(6)));
  EXPECT_NE("", CheckExact(pending, kAbsent));
  pending.maybe_del = true;
  EXPECT_EQ("", CheckExact(pending, kAbsent));
}

TEST(OracleCheckTest, PowerLossFloorFollowsSyncWrites) {
  DurabilityTracker t(4);
  t.Acked(0, 1, false, false, t.IssueMark());
  t.Acked(0, 2, false, false, t.IssueMark());
  DurabilityTracker::Floor f = t.FloorOf(0);
  EXPECT_EQ(0u, f.version);  // nothing synced: all may be lost
  EXPECT_TRUE(f.del_possible);
  // A sync write to another key covers what was acknowledged before it.
  const uint64_t mark = t.IssueMark();
  t.Acked(1, 1, false, true, mark);
  t.SyncDone(mark);
  t.Acked(0, 3, true, false, t.IssueMark());
  f = t.FloorOf(0);
  EXPECT_EQ(2u, f.version);
  EXPECT_TRUE(f.del_possible);  // v3, a delete, may have survived
  EXPECT_EQ(1u, t.FloorOf(1).version);
  const KeyState s = Acked(3, true);
  EXPECT_EQ("", CheckAfterPowerLoss(s, f, Present(2)));
  EXPECT_EQ("", CheckAfterPowerLoss(s, f, kAbsent));
  EXPECT_NE("", CheckAfterPowerLoss(s, f, Present(1)));
  EXPECT_NE("", CheckAfterPowerLoss(s, f, Present(3)));  // v3 is a delete
  EXPECT_NE("", CheckAfterPowerLoss(Acked(2, false), t.FloorOf(1), kAbsent));
}

TEST(OracleCheckTest, PowerLossKeepsAPrefixOfTheLog) {
  DurabilityTracker t(3);
  t.Acked(0, 1, false, false, t.IssueMark());  // ack 1
  t.Acked(1, 1, false, false, t.IssueMark());  // ack 2, issued after ack 1
  const std::vector<KeyState> states = {Acked(1, false), Acked(1, false),
                                        Acked(0, true)};
  // Both kept, or only the first, or neither: prefixes.
  EXPECT_EQ("", t.CheckPrefix({Present(1), Present(1), kAbsent}, states));
  EXPECT_EQ("", t.CheckPrefix({Present(1), kAbsent, kAbsent}, states));
  EXPECT_EQ("", t.CheckPrefix({kAbsent, kAbsent, kAbsent}, states));
  // The second without the first is a hole.
  EXPECT_NE("", t.CheckPrefix({kAbsent, Present(1), kAbsent}, states));
  // Writes in flight together may land in either order.
  const uint64_t mark = t.IssueMark();
  t.Acked(2, 1, false, false, mark);
  t.Acked(0, 2, false, false, mark);
  const std::vector<KeyState> later = {Acked(2, false), Acked(1, false),
                                       Acked(1, false)};
  EXPECT_EQ("", t.CheckPrefix({Present(1), Present(1), Present(1)}, later));
  EXPECT_NE("", t.CheckPrefix({Present(1), kAbsent, Present(1)}, later));
}

TEST(OracleCheckTest, SnapshotReadsLieBetweenTheTwoStates) {
  const KeyState lo = Acked(4, false);
  const KeyState hi = Acked(5, false);
  EXPECT_EQ("", CheckBetween(lo, hi, Present(4)));
  EXPECT_EQ("", CheckBetween(lo, hi, Present(5)));
  EXPECT_NE("", CheckBetween(lo, hi, Present(3)));
  EXPECT_NE("", CheckBetween(lo, hi, kAbsent));
  EXPECT_EQ("", CheckBetween(lo, Acked(7, false), kAbsent));  // v5, v6 unknown
}

TEST(OracleCheckTest, ABatchsValueImpliesTheRestOfTheBatch) {
  const BatchEntry put{5, 4, false};
  const BatchEntry del{6, 2, true};
  EXPECT_EQ("", CheckBatchEntry(put, Present(4), Acked(4, false)));
  EXPECT_EQ("", CheckBatchEntry(put, Present(6), Acked(6, false)));
  EXPECT_NE("", CheckBatchEntry(put, Present(3), Acked(4, false)));
  EXPECT_NE("", CheckBatchEntry(put, kAbsent, Acked(4, false)));
  EXPECT_EQ("", CheckBatchEntry(put, kAbsent, Acked(5, true)));  // later
  EXPECT_EQ("", CheckBatchEntry(del, kAbsent, Acked(2, true)));
  EXPECT_NE("", CheckBatchEntry(del, Present(1), Acked(2, true)));
}

TEST(ValueTest, ValuesNameTheirVersionAndDetectDamage) {
  const BatchList batch = {{7, 3, true}, {9, 12, false}};
  for (uint32_t v = 1; v < 200; v++) {
    const std::string value = ValueFor(42, v, 300, v % 2 ? batch : BatchList());
    uint32_t got = 0;
    BatchList got_batch;
    ASSERT_TRUE(DecodeValue(42, value, 300, &got, &got_batch));
    EXPECT_EQ(v, got);
    ASSERT_EQ(v % 2 ? 2u : 0u, got_batch.size());
    if (v % 2) {
      EXPECT_EQ(9u, got_batch[1].key);
      EXPECT_EQ(12u, got_batch[1].version);
      EXPECT_TRUE(got_batch[0].del);
    }
    EXPECT_FALSE(DecodeValue(43, value, 300, &got, &got_batch));
    for (size_t pos : {size_t{0}, size_t{10}, value.size() - 1}) {
      std::string bad = value;
      bad[pos] ^= 1;
      EXPECT_FALSE(DecodeValue(42, bad, 300, &got, &got_batch)) << pos;
    }
  }
  uint32_t key = 0;
  ASSERT_TRUE(ParseKey(KeyString(0xabc123), &key));
  EXPECT_EQ(0xabc123u, key);
  EXPECT_LT(KeyString(9), KeyString(10));
  EXPECT_FALSE(ParseKey("k0000000g", &key));
}

// Writes `synced` then `unsynced` bytes to `name` through `env`.
void WriteFile(FaultEnv* env, const std::string& name,
               const std::string& synced, const std::string& unsynced) {
  leveldb::WritableFile* f = nullptr;
  ASSERT_TRUE(env->NewWritableFile(name, &f).ok());
  ASSERT_TRUE(f->Append(synced).ok());
  ASSERT_TRUE(f->Sync().ok());
  ASSERT_TRUE(f->Append(unsynced).ok());
  ASSERT_TRUE(f->Close().ok());
  delete f;
}

TEST(FaultEnvTest, PowerLossTearsUnsyncedTails) {
  const std::string dir = TestDir("torn");
  leveldb::Env* base = leveldb::Env::Default();
  std::set<uint64_t> sizes;
  for (uint64_t seed = 0; seed < 64; seed++) {
    FaultEnv env(base, seed);
    const std::string name = dir + "/000007.log";
    WriteFile(&env, name, "synced", "unsynced tail");
    env.SetPowerOut(true);
    EXPECT_FALSE(env.RemoveFile(name).ok());
    env.SetPowerOut(false);
    ASSERT_TRUE(env.PowerLoss(seed).ok());
    uint64_t size = 0;
    ASSERT_TRUE(base->GetFileSize(name, &size).ok());  // its entry was synced
    EXPECT_GE(size, 6u);
    EXPECT_LE(size, 19u);
    sizes.insert(size);
  }
  EXPECT_GT(sizes.size(), 4u);
}

TEST(FaultEnvTest, UnsyncedCreationsMayVanishUntilTheDirectoryIsSynced) {
  const std::string dir = TestDir("entries");
  leveldb::Env* base = leveldb::Env::Default();
  int vanished = 0;
  for (uint64_t seed = 0; seed < 32; seed++) {
    FaultEnv env(base, seed);
    const std::string table = dir + "/000009.ldb";
    base->RemoveFile(table);
    WriteFile(&env, table, "table", "");  // a table's Sync syncs no entry
    ASSERT_TRUE(env.PowerLoss(seed).ok());
    if (!base->FileExists(table)) vanished++;
  }
  EXPECT_GT(vanished, 0);
  EXPECT_LT(vanished, 32);
  for (uint64_t seed = 0; seed < 16; seed++) {
    FaultEnv env(base, seed);
    const std::string table = dir + "/000010.ldb";
    base->RemoveFile(table);
    WriteFile(&env, table, "table", "");
    WriteFile(&env, dir + "/MANIFEST-000001", "edit", "");
    ASSERT_TRUE(env.PowerLoss(seed).ok());
    EXPECT_TRUE(base->FileExists(table));
  }
}

TEST(FaultEnvTest, InjectsErrorsAtTheConfiguredRate) {
  const std::string dir = TestDir("errors");
  FaultEnv env(leveldb::Env::Default(), 1);
  leveldb::WritableFile* f = nullptr;
  ASSERT_TRUE(env.NewWritableFile(dir + "/000003.log", &f).ok());
  env.SetErrorRate(1);
  EXPECT_TRUE(f->Append("x").IsIOError());
  EXPECT_TRUE(f->Sync().IsIOError());
  EXPECT_FALSE(env.RenameFile(dir + "/000003.log", dir + "/x").ok());
  env.SetErrorRate(0);
  EXPECT_TRUE(f->Append("x").ok());
  EXPECT_TRUE(f->Sync().ok());
  EXPECT_EQ(3u, env.stats().injected_errors);
  delete f;
}

// Parses `args` (without the program name) into `flags`.
std::string Parse(std::vector<std::string> args, Flags* flags) {
  std::vector<char*> argv = {const_cast<char*>("db_stress")};
  for (std::string& a : args) argv.push_back(&a[0]);
  return ParseFlags(static_cast<int>(argv.size()), argv.data(), flags);
}

TEST(FlagsTest, DbsAndSharedBudgetAreValidated) {
  for (const char* bad : {"--dbs=0", "--dbs=65", "--dbs=two", "--dbs=-1",
                          "--shared_budget_mb=0", "--shared_budget_mb=-2",
                          "--shared_budget_mb=nan", "--shared_budget_mb=x"}) {
    Flags f;
    const std::string err = Parse({"--db=d", bad}, &f);
    EXPECT_NE(std::string::npos, err.find("bad value for")) << bad << err;
  }
  Flags f;
  EXPECT_NE("", Parse({"--db=d", "--dbs=2", "--state=s"}, &f));
  EXPECT_NE(
      "", Parse({"--db=d", "--shared_budget_mb=1", "--plant=drop_filter"}, &f));
  Flags ok;
  ASSERT_EQ("", Parse({"--db=d", "--dbs=4", "--shared_budget_mb=0.5"}, &ok));
  EXPECT_EQ(4, ok.dbs);
  EXPECT_EQ(size_t{512} << 10, SharedBudgetBytes(ok));
  EXPECT_EQ("d/db3", DbPath(ok, 3));
  EXPECT_EQ("d/db3.oracle", StatePath(ok, 3));
}

TEST(FlagsTest, TheDefaultsDrawAsBeforeAndASharedBudgetMeansElastic) {
  Flags plain;
  ASSERT_EQ("", Parse({"--db=d", "--seed=77"}, &plain));
  EXPECT_EQ(1, plain.dbs);
  EXPECT_EQ("d.oracle", plain.state);
  const std::string drawn = PickConfig(plain).ToString();
  EXPECT_EQ(std::string::npos, drawn.find("shared_budget"));
  int elastic = 0;
  std::set<std::string> configs;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    Flags f;
    ASSERT_EQ("", Parse({"--db=d", "--dbs=3", "--shared_budget_mb=2",
                         "--seed=" + std::to_string(seed)},
                        &f));
    for (int db = 0; db < 3; db++) {
      const Config c = PickConfig(f, db);
      elastic += c.elastic ? 1 : 0;
      configs.insert(c.ToString());
      EXPECT_NE(std::string::npos, c.ToString().find("shared_budget_mb=2"));
    }
    EXPECT_NE(DbSeed(f, 0), DbSeed(f, 1));
  }
  EXPECT_EQ(120, elastic);
  EXPECT_GT(configs.size(), 100u);  // each database draws its own options
}

}  // namespace
}  // namespace stress

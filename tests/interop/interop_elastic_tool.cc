// ElasticBF databases and stock LevelDB, through the public API only. Built
// twice, like interop_db_tool: against the fork (interop_elastic_tool) and
// against Debian's LevelDB 1.23 (interop_elastic_tool_upstream).
//
//   build DIR N    (fork only) an ElasticBF database whose MANIFEST records
//                  segment hotness: N keys, a hot key range probed many
//                  times, then overwritten and compacted (so a compaction
//                  inherits hotness), closed cleanly
//   build-ribbon DIR N (fork only) an ElasticBF database with Ribbon
//                  units and no hotness records: N keys written and
//                  compacted, absent keys probed, closed
//   strip DIR      (fork only) StripElasticMetadata(DIR)
//   verify DIR N   open (no filter policy) and check every key; exits 1
//                  with the open status if the database cannot be opened.
//                  (The fork opening it without ElasticBF rewrites the
//                  MANIFEST without the hotness records.)
//   envbuild DIR N (both builds) what a program written for LevelDB 1.23
//                  does: a database with the built-in Bloom policy, N keys
//                  written, compacted, absent keys probed; prints
//                  "elasticbf: " and the first line of the leveldb.elasticbf
//                  property, or "elasticbf: absent" (stock LevelDB). Run on
//                  the fork's shared library with LEVELDB_ELASTICBF set, it
//                  shows the switch at work in a binary never rebuilt.
//
// Key i is "key-<8 digits>"; its value is version 1 inside the hot range
// [N/4, N/4 + N/10) and version 0 elsewhere.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"
#ifndef LEVELDB_UPSTREAM_BUILD
#include "leveldb/elastic_filter.h"
#endif

namespace {

#ifdef LEVELDB_UPSTREAM_BUILD
const char kSide[] = "upstream";
#else
const char kSide[] = "fork";
#endif

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "interop_elastic_tool[%s]: %s\n", kSide, what.c_str());
  std::exit(1);
}

void Check(const leveldb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key-%08d", i);
  return buf;
}

std::string Value(int i, int version) {
  std::string v = "value-" + std::to_string(i) + "-" + std::to_string(version);
  v.resize(100, static_cast<char>('a' + version));
  return v;
}

bool InHotRange(int i, int n) { return i >= n / 4 && i < n / 4 + n / 10; }

// Checks every key of an open database.
int VerifyOpen(leveldb::DB* db, int n) {
  std::string value;
  for (int i = 0; i < n; ++i) {
    Check(db->Get(leveldb::ReadOptions(), Key(i), &value), "get " + Key(i));
    const std::string want = Value(i, InHotRange(i, n) ? 1 : 0);
    if (value != want) Fail(Key(i) + ": expected " + want + ", found " + value);
  }
  int entries = 0;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++entries;
  Check(it->status(), "scan");
  if (entries != n) {
    Fail("scan found " + std::to_string(entries) + " entries, expected " +
         std::to_string(n));
  }
  std::printf("verified %d keys\n", n);
  return 0;
}

int Verify(const std::string& dir, int n) {
  leveldb::Options options;
  options.paranoid_checks = true;
  leveldb::DB* raw = nullptr;
  Check(leveldb::DB::Open(options, dir, &raw), "open " + dir);
  std::unique_ptr<leveldb::DB> db(raw);
  return VerifyOpen(db.get(), n);
}

// A key between Key(i) and Key(i + 1), never written.
std::string AbsentKey(int i) { return Key(i) + "-absent"; }

// Creates database `dir` with `policy`, writes keys [0, n) (the hot
// range's with generation `hot_generation`, the others with 0) and
// compacts everything.
std::unique_ptr<leveldb::DB> CreateAndFill(const std::string& dir,
                                           const leveldb::FilterPolicy* policy,
                                           int n, int hot_generation) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.write_buffer_size = 256 << 10;
  options.filter_policy = policy;
  leveldb::DB* raw = nullptr;
  Check(leveldb::DB::Open(options, dir, &raw), "create " + dir);
  std::unique_ptr<leveldb::DB> db(raw);

  leveldb::WriteBatch batch;
  for (int i = 0; i < n; ++i) {
    batch.Put(Key(i), Value(i, InHotRange(i, n) ? hot_generation : 0));
    if (i % 1000 == 999) {
      Check(db->Write(leveldb::WriteOptions(), &batch), "write");
      batch.Clear();
    }
  }
  Check(db->Write(leveldb::WriteOptions(), &batch), "write");
  db->CompactRange(nullptr, nullptr);
  return db;
}

int EnvBuild(const std::string& dir, int n) {
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  std::unique_ptr<leveldb::DB> db =
      CreateAndFill(dir, bloom.get(), n, /*hot_generation=*/1);
  std::string value;
  for (int i = 0; i < n; i += 3) {
    leveldb::Status s = db->Get(leveldb::ReadOptions(), AbsentKey(i), &value);
    if (!s.IsNotFound()) Fail("absent key found: " + s.ToString());
  }

  std::string stats;
  if (db->GetProperty("leveldb.elasticbf", &stats)) {
    std::printf("elasticbf: %s\n", stats.substr(0, stats.find('\n')).c_str());
  } else {
    std::printf("elasticbf: absent\n");
  }
  return VerifyOpen(db.get(), n);
}

#ifndef LEVELDB_UPSTREAM_BUILD

int Build(const std::string& dir, int n) {
  leveldb::ElasticFilterOptions eo;
  eo.segment_bytes = 16 << 10;
  eo.memory_bits_per_key = 8;
  eo.inherit_hotness = true;  // a MANIFEST with hotness records
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewElasticFilterPolicy(eo));
  std::unique_ptr<leveldb::DB> db =
      CreateAndFill(dir, policy.get(), n, /*hot_generation=*/0);

  // Make the hot range hot, then rewrite it: the compaction merging the
  // new versions into the old tables passes the hotness on.
  std::string value;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) {
      if (!InHotRange(i, n)) continue;
      leveldb::Status s = db->Get(leveldb::ReadOptions(), AbsentKey(i), &value);
      if (!s.IsNotFound()) Fail("absent key found: " + s.ToString());
    }
  }
  leveldb::WriteBatch batch;
  for (int i = 0; i < n; ++i) {
    if (InHotRange(i, n)) batch.Put(Key(i), Value(i, 1));
  }
  Check(db->Write(leveldb::WriteOptions(), &batch), "overwrite");
  db->CompactRange(nullptr, nullptr);

  std::string stats;
  if (!db->GetProperty("leveldb.elasticbf", &stats) ||
      stats.find("enabled: yes") != 0) {
    Fail("ElasticBF is not enabled: " + stats);
  }
  // Checked before the close: opening it without ElasticBF (as verify
  // does) would drop the hotness records from the MANIFEST.
  const int rc = VerifyOpen(db.get(), n);
  db.reset();  // a clean close records the hotness
  return rc;
}

int BuildRibbon(const std::string& dir, int n) {
  leveldb::ElasticFilterOptions eo;
  eo.unit_kind = leveldb::ElasticFilterOptions::UnitKind::kRibbon;
  eo.segment_bytes = 16 << 10;
  eo.memory_bits_per_key = 8;
  eo.inherit_hotness = false;  // a MANIFEST stock LevelDB opens as it is
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewElasticFilterPolicy(eo));
  std::unique_ptr<leveldb::DB> db =
      CreateAndFill(dir, policy.get(), n, /*hot_generation=*/1);
  std::string value;
  for (int i = 0; i < n; i += 3) {
    leveldb::Status s = db->Get(leveldb::ReadOptions(), AbsentKey(i), &value);
    if (!s.IsNotFound()) Fail("absent key found: " + s.ToString());
  }
  return VerifyOpen(db.get(), n);
}

int Strip(const std::string& dir) {
  leveldb::Options options;
  Check(leveldb::StripElasticMetadata(dir, options), "strip " + dir);
  std::printf("stripped %s\n", dir.c_str());
  return 0;
}

#endif  // !LEVELDB_UPSTREAM_BUILD

int IntArg(const char* text) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > (1 << 24)) {
    Fail(std::string("bad N '") + text + "'");
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "verify" && argc == 4) return Verify(argv[2], IntArg(argv[3]));
  if (command == "envbuild" && argc == 4) {
    return EnvBuild(argv[2], IntArg(argv[3]));
  }
#ifndef LEVELDB_UPSTREAM_BUILD
  if (command == "build" && argc == 4) return Build(argv[2], IntArg(argv[3]));
  if (command == "build-ribbon" && argc == 4) {
    return BuildRibbon(argv[2], IntArg(argv[3]));
  }
  if (command == "strip" && argc == 3) return Strip(argv[2]);
  Fail(
      "usage: interop_elastic_tool build DIR N | build-ribbon DIR N | "
      "strip DIR | verify DIR N | envbuild DIR N");
#else
  Fail("usage: interop_elastic_tool_upstream verify DIR N | envbuild DIR N");
#endif
}

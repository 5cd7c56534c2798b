// Builds, checks and changes a whole database through LevelDB's public API
// only. Built twice: against the fork (interop_db_tool) and against Debian's
// LevelDB (interop_db_tool_upstream), so that each side opens, reads,
// rewrites and compacts databases the other side created.
//
//   build DIR SEED N         create a database spread over several levels
//   verify DIR SEED N [GEN]  check it holds exactly the state after GEN
//   mutate DIR SEED N GEN    turn the state after GEN-1 into the one after
//                            GEN, with a full compaction in between
//
// The expected contents are a pure function of (SEED, N, GEN), computed the
// same way by both builds: key i of [0, N) is either absent or holds the
// value of a numbered version. Any mismatch exits with status 1 and a
// message naming the key, the expected version and what was found.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

#include "interop_tool_util.h"

namespace interop_tool {
#ifdef LEVELDB_UPSTREAM_BUILD
const char kToolName[] = "interop_db_tool[upstream]";
#else
const char kToolName[] = "interop_db_tool[fork]";
#endif
}  // namespace interop_tool

namespace {

using interop_tool::Check;
using interop_tool::Fail;
using interop_tool::IntArg;
using interop_tool::Rng;

// At most `limit` bytes of s in hex, "..." if there were more.
std::string Hex(const leveldb::Slice& s, size_t limit = 64) {
  const size_t n = std::min(s.size(), limit);
  std::string out = interop_tool::Hex(leveldb::Slice(s.data(), n));
  if (n < s.size()) out += "...";
  return out.empty() ? "(empty)" : out;
}

// One well-mixed number per (seed, index, salt).
uint64_t Hash3(uint64_t seed, uint64_t index, uint64_t salt) {
  Rng rng(seed ^ (index * 0xd6e8feb86659fd93ull) ^
          (salt * 0xc2b2ae3d27d4eb4full));
  rng.Next();
  return rng.Next();
}

// Salts separating the independent random choices.
constexpr uint64_t kPrefixSalt = 1;
constexpr uint64_t kKeySalt = 2;
constexpr uint64_t kValueSalt = 3;
constexpr uint64_t kBuildSalt = 4;
constexpr uint64_t kOrderSalt = 5;
constexpr uint64_t kBatchSalt = 6;
constexpr uint64_t kJunkSalt = 7;
constexpr uint64_t kGenSalt = 1000;

// Value versions. Generation g >= 1 writes version kGenVersionBase + g.
constexpr int kAbsent = -1;
constexpr int kInitial = 0;
constexpr int kOverwrite = 1;
constexpr int kLate = 2;
constexpr int kJunk = 3;  // written and overwritten inside one batch
constexpr int kGenVersionBase = 100;

// The deterministic model of the database for one (SEED, N).
class Model {
 public:
  Model(uint64_t seed, size_t n) : seed_(seed), n_(n) {
    // First bytes are distinct, so no prefix is a prefix of another and
    // every key (prefix + big-endian index + suffix) is unique. 0x00, 0xff
    // and bytes around 0x80 exercise unsigned comparison.
    static const unsigned char kFirst[] = {0x00, 0x01, 0x30, 0x61, 0x62,
                                           0x7f, 0x80, 0xc3, 0xfe, 0xff};
    Rng rng(Hash3(seed, 0, kPrefixSalt));
    for (unsigned char first : kFirst) {
      std::string p(1, static_cast<char>(first));
      const size_t extra = rng.Below(8);
      for (size_t i = 0; i < extra; ++i) {
        p.push_back(static_cast<char>(rng.Below(256)));
      }
      prefixes_.push_back(p);
    }
  }

  size_t n() const { return n_; }
  uint64_t seed() const { return seed_; }

  // Key 0 is the empty key; the others are prefix + index + random suffix.
  std::string Key(size_t i) const {
    if (i == 0) return std::string();
    Rng rng(Hash3(seed_, i, kKeySalt));
    std::string key = prefixes_[rng.Below(prefixes_.size())];
    for (int shift = 24; shift >= 0; shift -= 8) {
      key.push_back(static_cast<char>((i >> shift) & 0xff));
    }
    const size_t suffix = rng.Percent(2) ? 40 + rng.Below(200) : rng.Below(16);
    for (size_t j = 0; j < suffix; ++j) {
      const uint64_t pick = rng.Below(8);
      key.push_back(pick == 0   ? '\0'
                    : pick == 1 ? '\xff'
                                : static_cast<char>(rng.Below(256)));
    }
    return key;
  }

  // A key that no index maps to (same prefix and index as Key(i), but a
  // suffix that Key(i) does not have).
  std::string AbsentKey(size_t i) const { return Key(i) + '\x01'; }

  // Sizes from empty to 40 KiB, plus one value larger than the write buffer
  // and a log block; contents compress well or not at all.
  std::string Value(size_t i, int version) const {
    Rng rng(Hash3(seed_, i, kValueSalt + static_cast<uint64_t>(version)));
    size_t size;
    const uint64_t bucket = rng.Below(100);
    if (version == kInitial && i == n_ / 2) {
      size = 150 * 1024;
    } else if (bucket < 5) {
      size = 0;
    } else if (bucket < 60) {
      size = 1 + rng.Below(100);
    } else if (bucket < 90) {
      size = 100 + rng.Below(900);
    } else if (bucket < 99) {
      size = 1000 + rng.Below(4000);
    } else {
      size = 5000 + rng.Below(35000);
    }
    std::string value(size, '\0');
    if (rng.Percent(50)) {
      const size_t period = 1 + rng.Below(16);
      std::string pattern;
      for (size_t j = 0; j < period; ++j) {
        pattern.push_back(static_cast<char>(rng.Below(256)));
      }
      for (size_t j = 0; j < size; ++j) value[j] = pattern[j % period];
    } else {
      for (char& c : value) c = static_cast<char>(rng.Below(256));
    }
    return value;
  }

  // Which slice of the build a key falls in (0..99).
  uint64_t BuildBucket(size_t i) const {
    return Hash3(seed_, i, kBuildSalt) % 100;
  }

  // Generation g's action on key i: delete (0..14), put (15..39) or
  // nothing; `late` ops are applied after the full compaction.
  void GenAction(size_t i, int gen, bool* del, bool* put, bool* late) const {
    const uint64_t h = Hash3(seed_, i, kGenSalt + static_cast<uint64_t>(gen));
    const uint64_t bucket = h % 100;
    *del = bucket < 15;
    *put = bucket >= 15 && bucket < 40;
    *late = ((h >> 32) % 4) == 0;
  }

  // Version held by key i after the build.
  int BuildVersion(size_t i) const {
    const uint64_t b = BuildBucket(i);
    if (b < 20) return kOverwrite;
    if (b < 36) return kAbsent;
    if (b < 42) return kLate;
    return kInitial;
  }

  // Version held by every key after generation `gen`.
  std::vector<int> Versions(int gen) const {
    std::vector<int> v(n_);
    for (size_t i = 0; i < n_; ++i) v[i] = BuildVersion(i);
    for (int g = 1; g <= gen; ++g) {
      for (size_t i = 0; i < n_; ++i) {
        bool del, put, late;
        GenAction(i, g, &del, &put, &late);
        if (del) v[i] = kAbsent;
        if (put) v[i] = kGenVersionBase + g;
      }
    }
    return v;
  }

  // A deterministic permutation of [0, N) for the order of writes.
  std::vector<size_t> Order(uint64_t salt) const {
    std::vector<size_t> order(n_);
    for (size_t i = 0; i < n_; ++i) order[i] = i;
    Rng rng(Hash3(seed_, 0, kOrderSalt + salt));
    for (size_t i = n_; i > 1; --i)
      std::swap(order[i - 1], order[rng.Below(i)]);
    return order;
  }

  // Indices sorted by key, for key ranges and expected iteration.
  std::vector<std::pair<std::string, size_t>> SortedKeys() const {
    std::vector<std::pair<std::string, size_t>> keys;
    keys.reserve(n_);
    for (size_t i = 0; i < n_; ++i) keys.emplace_back(Key(i), i);
    // std::string compares bytes as unsigned char, as the bytewise
    // comparator does.
    std::sort(keys.begin(), keys.end());
    return keys;
  }

 private:
  const uint64_t seed_;
  const size_t n_;
  std::vector<std::string> prefixes_;
};

std::string VersionName(int version) {
  if (version == kAbsent) return "absent";
  return "version " + std::to_string(version);
}

// Names the version of key i whose value equals `found`, to make mismatch
// reports say e.g. "holds version 1" rather than only "differs".
std::string Identify(const Model& model, size_t i, const std::string& found,
                     int max_gen) {
  std::vector<int> candidates = {kInitial, kOverwrite, kLate, kJunk};
  for (int g = 1; g <= max_gen + 2; ++g)
    candidates.push_back(kGenVersionBase + g);
  for (int version : candidates) {
    if (model.Value(i, version) == found)
      return "version " + std::to_string(version);
  }
  return "no known version";
}

std::string DescribeKey(const Model& model, size_t i) {
  return "key #" + std::to_string(i) + " (" + Hex(model.Key(i)) + ")";
}

// Holds the options objects that must outlive the DB.
struct OpenDb {
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  std::unique_ptr<leveldb::DB> db;
};

OpenDb Open(const std::string& dir, bool create) {
  OpenDb out;
  out.policy.reset(leveldb::NewBloomFilterPolicy(10));
  leveldb::Options options;
  options.create_if_missing = create;
  options.error_if_exists = create;
  options.paranoid_checks = true;
  options.compression = leveldb::kSnappyCompression;
  options.filter_policy = out.policy.get();
  options.write_buffer_size = 64 * 1024;
  // 1 MiB is the smallest file size either implementation accepts (smaller
  // values are raised to it).
  options.max_file_size = 1024 * 1024;
  options.block_size = 2048;
  leveldb::DB* db = nullptr;
  Check(leveldb::DB::Open(options, dir, &db),
        std::string(create ? "create " : "open ") + dir);
  out.db.reset(db);
  return out;
}

// Applies puts and deletes, some one at a time and some grouped in atomic
// batches of random size, as a client would.
class Writer {
 public:
  Writer(leveldb::DB* db, const Model& model, uint64_t salt)
      : db_(db), rng_(Hash3(model.seed(), 0, kBatchSalt + salt)) {}
  ~Writer() { Flush(); }

  void Put(const std::string& key, const std::string& value) {
    if (StartOrContinueBatch()) {
      batch_.Put(key, value);
      EndOp();
    } else {
      Check(db_->Put(NextWriteOptions(), key, value), "put " + Hex(key));
    }
  }

  void Delete(const std::string& key) {
    if (StartOrContinueBatch()) {
      batch_.Delete(key);
      EndOp();
    } else {
      Check(db_->Delete(NextWriteOptions(), key), "delete " + Hex(key));
    }
  }

  // Puts junk then the real value inside one batch: the later one wins.
  void PutTwice(const std::string& key, const std::string& junk,
                const std::string& value) {
    leveldb::WriteBatch batch;
    batch.Put(key, junk);
    batch.Put(key, value);
    Check(db_->Write(NextWriteOptions(), &batch), "two-put batch " + Hex(key));
  }

  void Flush() {
    if (batch_ops_ > 0) {
      Check(db_->Write(NextWriteOptions(), &batch_), "batch write");
      batch_.Clear();
      batch_ops_ = 0;
      batch_target_ = 0;
    }
  }

 private:
  bool StartOrContinueBatch() {
    if (batch_target_ == 0) {
      if (!rng_.Percent(30)) return false;
      batch_target_ = 1 + rng_.Below(60);
    }
    return true;
  }
  void EndOp() {
    if (++batch_ops_ >= batch_target_) Flush();
  }
  leveldb::WriteOptions NextWriteOptions() {
    leveldb::WriteOptions w;
    w.sync = rng_.Below(500) == 0;  // an occasional synced write
    return w;
  }

  leveldb::DB* const db_;
  Rng rng_;
  leveldb::WriteBatch batch_;
  size_t batch_ops_ = 0;
  size_t batch_target_ = 0;
};

void CompactKeyRange(leveldb::DB* db, const std::string& begin,
                     const std::string& end) {
  leveldb::Slice b(begin), e(end);
  db->CompactRange(&b, &e);
}

// Prints the files per level; returns how many levels hold files.
int ReportLevels(leveldb::DB* db, const char* when) {
  int levels_with_files = 0;
  std::string line = std::string(when) + " files per level:";
  for (int level = 0; level < 7; ++level) {
    std::string value;
    if (!db->GetProperty("leveldb.num-files-at-level" + std::to_string(level),
                         &value)) {
      Fail("property leveldb.num-files-at-level" + std::to_string(level) +
           " is missing");
    }
    line += " " + value;
    if (value != "0") ++levels_with_files;
  }
  std::printf("%s\nlevels-with-files %d\n", line.c_str(), levels_with_files);
  return levels_with_files;
}

// Checks the open database against the model after generation `gen`.
void VerifyDb(leveldb::DB* db, const Model& model, int gen) {
  const std::vector<int> versions = model.Versions(gen);
  leveldb::ReadOptions ro;
  ro.verify_checksums = true;

  size_t present = 0;
  std::string found;
  for (size_t i = 0; i < model.n(); ++i) {
    const std::string key = model.Key(i);
    leveldb::Status s = db->Get(ro, key, &found);
    if (versions[i] == kAbsent) {
      if (s.ok()) {
        Fail("Get " + DescribeKey(model, i) +
             ": expected absent, found a value of " +
             std::to_string(found.size()) + " bytes (" +
             Identify(model, i, found, gen) + ")");
      }
      if (!s.IsNotFound())
        Fail("Get " + DescribeKey(model, i) + ": " + s.ToString());
      continue;
    }
    ++present;
    if (!s.ok()) {
      Fail("Get " + DescribeKey(model, i) + ": expected " +
           VersionName(versions[i]) + ", got " + s.ToString());
    }
    const std::string want = model.Value(i, versions[i]);
    if (found != want) {
      Fail("Get " + DescribeKey(model, i) + ": expected " +
           VersionName(versions[i]) + " (" + std::to_string(want.size()) +
           " bytes, " + Hex(want, 16) + "), found " +
           std::to_string(found.size()) + " bytes (" + Hex(found, 16) + ", " +
           Identify(model, i, found, gen) + ")");
    }
  }
  // Keys never written must be missing (the Bloom filter must not hide
  // present ones, checked above, and must not invent absent ones).
  for (size_t i = 0; i < model.n(); i += 3) {
    leveldb::Status s = db->Get(ro, model.AbsentKey(i), &found);
    if (!s.IsNotFound()) {
      Fail("Get of never-written key " + Hex(model.AbsentKey(i)) +
           ": expected NotFound, got " +
           (s.ok() ? "a value of " + std::to_string(found.size()) + " bytes"
                   : s.ToString()));
    }
  }

  // Expected live entries in key order.
  std::vector<std::pair<std::string, size_t>> live;
  for (auto& entry : model.SortedKeys()) {
    if (versions[entry.second] != kAbsent) live.push_back(std::move(entry));
  }
  auto describe_position = [&](size_t p) {
    return p < live.size() ? DescribeKey(model, live[p].second)
                           : std::string("the end");
  };
  auto check_entry = [&](leveldb::Iterator* it, size_t p,
                         const std::string& where) {
    if (p >= live.size()) {
      if (it->Valid()) {
        Fail(where + ": expected the end, found key " + Hex(it->key()));
      }
      return;
    }
    if (!it->Valid()) {
      Check(it->status(), where);
      Fail(where + ": iterator ended, expected " + describe_position(p));
    }
    const size_t i = live[p].second;
    if (it->key() != leveldb::Slice(live[p].first)) {
      Fail(where + ": expected " + describe_position(p) + ", found key " +
           Hex(it->key()));
    }
    if (it->value() != leveldb::Slice(model.Value(i, versions[i]))) {
      Fail(where + ": " + DescribeKey(model, i) + " has a wrong value (" +
           Identify(model, i, it->value().ToString(), gen) + ", expected " +
           VersionName(versions[i]) + ")");
    }
  };

  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  size_t p = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++p) {
    check_entry(it.get(), p, "forward scan, entry " + std::to_string(p));
  }
  Check(it->status(), "forward scan");
  if (p != live.size()) {
    Fail("forward scan stopped after " + std::to_string(p) + " of " +
         std::to_string(live.size()) + " entries; missing " +
         describe_position(p));
  }
  p = live.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    if (p == 0) Fail("backward scan: entries before the first expected key");
    --p;
    check_entry(it.get(), p, "backward scan, entry " + std::to_string(p));
  }
  Check(it->status(), "backward scan");
  if (p != 0) {
    Fail("backward scan stopped with " + std::to_string(p) +
         " entries left; missing " + describe_position(p - 1));
  }

  // Seeks to present and absent keys, each followed by a step both ways.
  const size_t step = std::max<size_t>(1, model.n() / 300);
  for (size_t i = 0; i < model.n(); i += step) {
    for (const std::string& target : {model.Key(i), model.AbsentKey(i)}) {
      const size_t want = static_cast<size_t>(
          std::lower_bound(live.begin(), live.end(),
                           std::make_pair(target, size_t{0})) -
          live.begin());
      const std::string where = "Seek(" + Hex(target) + ")";
      it->Seek(target);
      check_entry(it.get(), want, where);
      if (want < live.size()) {
        it->Next();
        check_entry(it.get(), want + 1, where + " then Next");
        it->Seek(target);
        it->Prev();
        if (want == 0) {
          if (it->Valid()) Fail(where + " then Prev: expected the start");
        } else {
          check_entry(it.get(), want - 1, where + " then Prev");
        }
      }
      Check(it->status(), where);
    }
  }
  it.reset();

  std::string stats;
  if (!db->GetProperty("leveldb.stats", &stats)) {
    Fail("property leveldb.stats is missing");
  }
  leveldb::Range everything("", std::string(300, '\xff'));
  uint64_t size = 0;
  db->GetApproximateSizes(&everything, 1, &size);
  std::printf(
      "verified gen %d: %zu present, %zu absent; approximate size %llu\n", gen,
      present, model.n() - present, static_cast<unsigned long long>(size));
}

int Build(const std::string& dir, const Model& model) {
  OpenDb open = Open(dir, /*create=*/true);
  leveldb::DB* db = open.db.get();
  const auto sorted = model.SortedKeys();
  const size_t n = model.n();
  {
    // Phase 1: every key gets its first version, in random order; a few
    // go through a junk version inside one batch.
    Writer writer(db, model, 1);
    for (size_t i : model.Order(1)) {
      if (Hash3(model.seed(), i, kJunkSalt) % 50 == 0) {
        writer.PutTwice(model.Key(i), model.Value(i, kJunk),
                        model.Value(i, kInitial));
      } else {
        writer.Put(model.Key(i), model.Value(i, kInitial));
      }
    }
  }
  if (n >= 10)
    CompactKeyRange(db, sorted[n / 10].first, sorted[4 * n / 10].first);
  {
    // Phase 2: overwrites and deletes; some keys get a version that phase
    // 3 replaces or deletes again. Deleting a never-written key is a no-op.
    Writer writer(db, model, 2);
    for (size_t i : model.Order(2)) {
      const uint64_t b = model.BuildBucket(i);
      if (b < 20 || (b >= 32 && b < 40)) {
        writer.Put(model.Key(i), model.Value(i, kOverwrite));
      } else if (b < 32) {
        writer.Delete(model.Key(i));
      } else if (b >= 90) {
        writer.Delete(model.AbsentKey(i));
      }
    }
  }
  if (n >= 10)
    CompactKeyRange(db, sorted[n / 2].first, sorted[7 * n / 10].first);
  {
    Writer writer(db, model, 3);
    for (size_t i : model.Order(3)) {
      const uint64_t b = model.BuildBucket(i);
      if (b >= 32 && b < 36) writer.Delete(model.Key(i));
      if (b >= 36 && b < 40) writer.Put(model.Key(i), model.Value(i, kLate));
    }
  }
  // No key starts with 0x02: this only flushes the memtable to a table.
  CompactKeyRange(db, "\x02", "\x03");
  {
    // Phase 4 stays in the write-ahead log for the next opener to recover.
    Writer writer(db, model, 4);
    for (size_t i : model.Order(4)) {
      const uint64_t b = model.BuildBucket(i);
      if (b >= 40 && b < 42) writer.Put(model.Key(i), model.Value(i, kLate));
    }
  }
  if (ReportLevels(db, "after build") < 2) {
    Fail("the build left files in fewer than 2 levels; N is too small");
  }
  VerifyDb(db, model, 0);
  return 0;
}

int Verify(const std::string& dir, const Model& model, int gen) {
  OpenDb open = Open(dir, /*create=*/false);
  ReportLevels(open.db.get(), "at open");
  VerifyDb(open.db.get(), model, gen);
  return 0;
}

int Mutate(const std::string& dir, const Model& model, int gen) {
  OpenDb open = Open(dir, /*create=*/false);
  leveldb::DB* db = open.db.get();
  ReportLevels(db, "before mutate");
  const std::vector<int> before = model.Versions(gen - 1);
  const leveldb::Snapshot* snapshot = db->GetSnapshot();
  {
    Writer writer(db, model, kGenSalt + static_cast<uint64_t>(gen));
    for (int pass = 0; pass < 2; ++pass) {
      // Early operations, then (after the full compaction) the late ones.
      for (size_t i : model.Order(kGenSalt + static_cast<uint64_t>(gen))) {
        bool del, put, late;
        model.GenAction(i, gen, &del, &put, &late);
        if (late != (pass == 1)) continue;
        if (del) writer.Delete(model.Key(i));
        if (put)
          writer.Put(model.Key(i), model.Value(i, kGenVersionBase + gen));
        if (!del && !put && i % 97 == 0) writer.Delete(model.AbsentKey(i));
      }
      writer.Flush();
      if (pass == 0) {
        db->CompactRange(nullptr, nullptr);
        ReportLevels(db, "after full compaction");
      }
    }
  }
  // The compaction must have kept what the snapshot still sees.
  leveldb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  std::string found;
  for (size_t i = 0; i < model.n(); i += 7) {
    leveldb::Status s = db->Get(at_snapshot, model.Key(i), &found);
    const bool ok = before[i] == kAbsent
                        ? s.IsNotFound()
                        : s.ok() && found == model.Value(i, before[i]);
    if (!ok) {
      Fail("snapshot Get " + DescribeKey(model, i) + ": expected " +
           VersionName(before[i]) + ", got " +
           (s.ok() ? Identify(model, i, found, gen) : s.ToString()));
    }
  }
  db->ReleaseSnapshot(snapshot);
  VerifyDb(db, model, gen);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  const bool known =
      command == "build" || command == "verify" || command == "mutate";
  if (!known || argc < 5 || argc > 6 || (command == "build" && argc != 5) ||
      (command == "mutate" && argc != 6)) {
    Fail(
        "usage: interop_db_tool build DIR SEED N | verify DIR SEED N [GEN] | "
        "mutate DIR SEED N GEN");
  }
  const std::string dir = argv[2];
  const uint64_t seed =
      static_cast<uint64_t>(IntArg(argv[3], 0, INT64_MAX, "SEED"));
  const Model model(seed,
                    static_cast<size_t>(IntArg(argv[4], 1, 1 << 24, "N")));
  if (command == "build") return Build(dir, model);
  if (command == "verify") {
    const int gen =
        argc == 6 ? static_cast<int>(IntArg(argv[5], 0, 1000, "GEN")) : 0;
    return Verify(dir, model, gen);
  }
  return Mutate(dir, model, static_cast<int>(IntArg(argv[5], 1, 1000, "GEN")));
}

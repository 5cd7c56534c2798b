// Writes and reads sorted tables through LevelDB's public API only. Built
// twice: against the fork (interop_table_tool) and against Debian's LevelDB
// (interop_table_tool_upstream), so each can read what the other wrote.
//
//   write FILE N SEED COMPRESSION(0|1) BLOOM_BITS(0=none) BLOCK_SIZE RESTARTS
//   dump FILE BLOOM_BITS
//
// `write` is deterministic: the same arguments give the same entries with
// either build. `dump` prints every entry as hex, then checks iteration in
// both directions, Seek on present and absent keys, and prints approximate
// offsets, so two dumps of one file must be identical text.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

#include "interop_tool_util.h"

namespace interop_tool {
const char kToolName[] = "interop_table_tool";
}  // namespace interop_tool

namespace {

using interop_tool::Check;
using interop_tool::Fail;
using interop_tool::Hex;
using interop_tool::IntArg;
using interop_tool::Rng;

// Keys share prefixes drawn from a small pool (so prefix compression and
// restart points matter), then continue with arbitrary bytes, 0x00 and 0xff
// included. Lengths run from 0 to a few hundred bytes.
std::string MakeKey(Rng* rng, const std::vector<std::string>& prefixes) {
  std::string key = prefixes[rng->Below(prefixes.size())];
  size_t extra = rng->Percent(5) ? rng->Below(300) : rng->Below(20);
  for (size_t i = 0; i < extra; ++i) {
    uint64_t pick = rng->Below(10);
    if (pick == 0) {
      key.push_back('\0');
    } else if (pick == 1) {
      key.push_back('\xff');
    } else {
      key.push_back(static_cast<char>(rng->Below(256)));
    }
  }
  return key;
}

std::vector<std::string> MakeSortedKeys(Rng* rng, size_t n) {
  std::vector<std::string> prefixes = {""};
  for (int i = 0; i < 15; ++i) {
    std::string p;
    size_t len = 1 + rng->Below(12);
    for (size_t j = 0; j < len; ++j) {
      p.push_back(static_cast<char>(rng->Below(256)));
    }
    prefixes.push_back(p);
  }
  // std::string orders bytes as unsigned char, like the bytewise comparator.
  std::set<std::string> keys;
  while (keys.size() < n) keys.insert(MakeKey(rng, prefixes));
  return std::vector<std::string>(keys.begin(), keys.end());
}

// Sizes from empty to 20 KiB; contents either one repeated short pattern
// (compresses well) or random bytes (does not).
std::string MakeValue(Rng* rng) {
  size_t size;
  uint64_t bucket = rng->Below(100);
  if (bucket < 10) {
    size = 0;
  } else if (bucket < 60) {
    size = 1 + rng->Below(64);
  } else if (bucket < 90) {
    size = 65 + rng->Below(1000);
  } else if (bucket < 98) {
    size = 1065 + rng->Below(4000);
  } else {
    size = 5065 + rng->Below(20 * 1024 - 5065 + 1);
  }
  std::string value(size, '\0');
  if (rng->Percent(50)) {
    size_t period = 1 + rng->Below(8);
    std::string pattern;
    for (size_t i = 0; i < period; ++i) {
      pattern.push_back(static_cast<char>(rng->Below(256)));
    }
    for (size_t i = 0; i < size; ++i) value[i] = pattern[i % period];
  } else {
    for (char& c : value) c = static_cast<char>(rng->Below(256));
  }
  return value;
}

std::unique_ptr<const leveldb::FilterPolicy> MakePolicy(long long bits) {
  if (bits == 0) return nullptr;
  return std::unique_ptr<const leveldb::FilterPolicy>(
      leveldb::NewBloomFilterPolicy(static_cast<int>(bits)));
}

int Write(int argc, char** argv) {
  if (argc != 9) {
    Fail(
        "usage: write FILE N SEED COMPRESSION BLOOM_BITS BLOCK_SIZE "
        "RESTART_INTERVAL");
  }
  const std::string path = argv[2];
  const size_t n = static_cast<size_t>(IntArg(argv[3], 0, 10000000, "N"));
  const uint64_t seed =
      static_cast<uint64_t>(IntArg(argv[4], 0, INT64_MAX, "SEED"));
  const long long compression = IntArg(argv[5], 0, 1, "COMPRESSION");
  const long long bloom_bits = IntArg(argv[6], 0, 100, "BLOOM_BITS");
  const long long block_size = IntArg(argv[7], 1, 1 << 30, "BLOCK_SIZE");
  const long long restarts = IntArg(argv[8], 1, 1 << 20, "RESTART_INTERVAL");

  std::unique_ptr<const leveldb::FilterPolicy> policy = MakePolicy(bloom_bits);
  leveldb::Options options;
  options.compression =
      compression ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  options.filter_policy = policy.get();
  options.block_size = static_cast<size_t>(block_size);
  options.block_restart_interval = static_cast<int>(restarts);

  Rng rng(seed);
  const std::vector<std::string> keys = MakeSortedKeys(&rng, n);

  leveldb::WritableFile* raw = nullptr;
  Check(options.env->NewWritableFile(path, &raw), "create " + path);
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::TableBuilder builder(options, file.get());
  for (const std::string& key : keys) {
    builder.Add(key, MakeValue(&rng));
    Check(builder.status(), "add");
  }
  Check(builder.Finish(), "finish");
  Check(file->Sync(), "sync");
  Check(file->Close(), "close");
  if (builder.NumEntries() != n) Fail("NumEntries disagrees with N");
  uint64_t size = 0;
  Check(options.env->GetFileSize(path, &size), "stat " + path);
  if (size != builder.FileSize()) Fail("FileSize disagrees with the file");
  return 0;
}

// Position of the first key >= target, as Seek must find it.
size_t LowerBound(const std::vector<std::string>& keys,
                  const std::string& target) {
  return static_cast<size_t>(
      std::lower_bound(keys.begin(), keys.end(), target) - keys.begin());
}

void CheckSeek(leveldb::Iterator* it, const std::vector<std::string>& keys,
               const std::vector<std::string>& values,
               const std::string& target) {
  it->Seek(target);
  size_t want = LowerBound(keys, target);
  if (want == keys.size()) {
    if (it->Valid()) Fail("Seek(" + Hex(target) + ") past the end is valid");
  } else if (!it->Valid() || it->key() != leveldb::Slice(keys[want]) ||
             it->value() != leveldb::Slice(values[want])) {
    Fail("Seek(" + Hex(target) + ") did not land on " + Hex(keys[want]));
  }
  Check(it->status(), "seek");
}

int Dump(int argc, char** argv) {
  if (argc != 4) Fail("usage: dump FILE BLOOM_BITS");
  const std::string path = argv[2];
  const long long bloom_bits = IntArg(argv[3], 0, 100, "BLOOM_BITS");
  std::unique_ptr<const leveldb::FilterPolicy> policy = MakePolicy(bloom_bits);
  leveldb::Options options;
  options.filter_policy = policy.get();
  options.paranoid_checks = true;

  uint64_t size = 0;
  Check(options.env->GetFileSize(path, &size), "stat " + path);
  leveldb::RandomAccessFile* raw_file = nullptr;
  Check(options.env->NewRandomAccessFile(path, &raw_file), "open " + path);
  std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
  leveldb::Table* raw_table = nullptr;
  Check(leveldb::Table::Open(options, file.get(), size, &raw_table),
        "Table::Open");
  std::unique_ptr<leveldb::Table> table(raw_table);

  leveldb::ReadOptions read_options;
  read_options.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read_options));

  // Forward scan: print and remember everything.
  std::vector<std::string> keys;
  std::vector<std::string> values;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!keys.empty() &&
        !(leveldb::Slice(keys.back()).compare(it->key()) < 0)) {
      Fail("keys out of order after " + Hex(keys.back()));
    }
    keys.push_back(it->key().ToString());
    values.push_back(it->value().ToString());
    std::printf("%s %s\n", Hex(it->key()).c_str(), Hex(it->value()).c_str());
  }
  Check(it->status(), "forward scan");
  std::printf("entries %zu\n", keys.size());

  // Backward scan must visit the same entries in reverse.
  size_t back = keys.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    if (back == 0 || it->key() != leveldb::Slice(keys[back - 1]) ||
        it->value() != leveldb::Slice(values[back - 1])) {
      Fail("backward scan disagrees with forward scan");
    }
    --back;
  }
  Check(it->status(), "backward scan");
  if (back != 0) Fail("backward scan stopped early");

  // Present keys (a sample), and absent neighbours of each: just after it,
  // and a truncation or byte change that may or may not exist.
  Rng rng(keys.size() * 7 + 1);
  const size_t step = keys.size() < 200 ? 1 : keys.size() / 200;
  for (size_t i = 0; i < keys.size(); i += step) {
    CheckSeek(it.get(), keys, values, keys[i]);
    CheckSeek(it.get(), keys, values, keys[i] + std::string(1, '\0'));
    std::string shorter = keys[i].substr(0, keys[i].size() / 2);
    CheckSeek(it.get(), keys, values, shorter);
    std::string changed = keys[i];
    if (!changed.empty()) {
      changed[rng.Below(changed.size())] ^=
          static_cast<char>(1 + rng.Below(255));
    }
    CheckSeek(it.get(), keys, values, changed);
  }
  // Random probes, mostly absent, plus the extremes of the key space.
  for (int i = 0; i < 200; ++i) {
    std::string probe(rng.Below(24), '\0');
    for (char& c : probe) c = static_cast<char>(rng.Below(256));
    CheckSeek(it.get(), keys, values, probe);
  }
  CheckSeek(it.get(), keys, values, "");
  CheckSeek(it.get(), keys, values, std::string(400, '\xff'));

  // Offsets depend only on the file's index, so equal files give equal text.
  for (size_t i = 0; i < keys.size(); i += step) {
    std::printf(
        "offset %s %llu\n", Hex(keys[i]).c_str(),
        static_cast<unsigned long long>(table->ApproximateOffsetOf(keys[i])));
  }
  std::printf("offset-end %llu\n",
              static_cast<unsigned long long>(
                  table->ApproximateOffsetOf(std::string(400, '\xff'))));
  if (std::fflush(stdout) != 0) Fail("write to stdout failed");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "write") return Write(argc, argv);
  if (command == "dump") return Dump(argc, argv);
  Fail("usage: interop_table_tool write|dump ...");
}

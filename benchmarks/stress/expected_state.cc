#include "stress/expected_state.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "stress/fault_env.h"

namespace stress {

namespace {

constexpr uint64_t kMagic = 0x5354524553533031ULL;  // "STRESS01"
constexpr size_t kHeaderBytes = 64;
constexpr uint32_t kVersionMask = kMaxVersion;
constexpr size_t kMaxRecent = 8;

uint64_t Pack(const KeyState& s) {
  return (uint64_t{s.acked} & kVersionMask) |
         ((uint64_t{s.top} & kVersionMask) << 30) |
         (uint64_t{s.acked_del} << 60) | (uint64_t{s.maybe} << 61) |
         (uint64_t{s.maybe_del} << 62);
}

KeyState Unpack(uint64_t w) {
  KeyState s;
  s.acked = static_cast<uint32_t>(w & kVersionMask);
  s.top = static_cast<uint32_t>((w >> 30) & kVersionMask);
  s.acked_del = ((w >> 60) & 1) != 0;
  s.maybe = ((w >> 61) & 1) != 0;
  s.maybe_del = ((w >> 62) & 1) != 0;
  return s;
}

std::string Errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

std::string DescribeState(const KeyState& s) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "acked v%u%s, top v%u%s%s", s.acked,
                s.acked_del ? " (deleted)" : "", s.top,
                s.maybe ? ", unacknowledged writes pending" : "",
                s.maybe_del ? " (one a delete)" : "");
  return buf;
}

}  // namespace

std::string ExpectedState::Open(const std::string& path, uint32_t num_keys,
                                std::unique_ptr<ExpectedState>* result) {
  const size_t bytes = kHeaderBytes + size_t{num_keys} * sizeof(uint64_t);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) return Errno("open", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return Errno("stat", path);
  }
  const bool fresh = st.st_size == 0;
  if (fresh && ::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    return Errno("ftruncate", path);
  }
  if (!fresh && static_cast<size_t>(st.st_size) != bytes) {
    ::close(fd);
    return path + ": made for another key count";
  }
  void* map = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return Errno("mmap", path);
  auto* header = static_cast<uint64_t*>(map);
  if (fresh) {
    header[1] = num_keys;
    header[0] = kMagic;  // last: a file without it is rejected
  } else if (header[0] != kMagic || header[1] != num_keys) {
    ::munmap(map, bytes);
    return path + ": not an oracle file for " + std::to_string(num_keys) +
           " keys";
  }
  result->reset(new ExpectedState(map, bytes, num_keys));
  if (fresh) {
    for (uint32_t k = 0; k < num_keys; k++) (*result)->Store(k, KeyState());
  }
  return "";
}

ExpectedState::ExpectedState(void* map, size_t bytes, uint32_t num_keys)
    : map_(map),
      bytes_(bytes),
      num_keys_(num_keys),
      slots_(reinterpret_cast<std::atomic<uint64_t>*>(static_cast<char*>(map) +
                                                      kHeaderBytes)) {
  static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t),
                "slots are plain 64-bit words in the file");
}

ExpectedState::~ExpectedState() { ::munmap(map_, bytes_); }

KeyState ExpectedState::Load(uint32_t key) const {
  return Unpack(slots_[key].load(std::memory_order_acquire));
}

void ExpectedState::Store(uint32_t key, const KeyState& state) {
  slots_[key].store(Pack(state), std::memory_order_release);
}

DurabilityTracker::DurabilityTracker(uint32_t num_keys) : keys_(num_keys) {}

void DurabilityTracker::SyncDone(uint64_t mark) {
  uint64_t cur = durable_.load();
  while (cur < mark && !durable_.compare_exchange_weak(cur, mark)) {
  }
}

void DurabilityTracker::Acked(uint32_t key, uint32_t version, bool del,
                              bool sync, uint64_t issue) {
  const uint64_t seq = acks_.fetch_add(1) + 1;
  History& h = keys_[key];
  if (sync) {
    Reset(key, version, del);
    return;
  }
  h.recent.push_back(Ack{version, del, seq, issue});
  Advance(&h);
  if (h.recent.size() > kMaxRecent) {
    // Forgetting the oldest keeps base a valid (if looser) lower bound.
    h.recent.erase(h.recent.begin());
    h.uncertain = true;
  }
}

void DurabilityTracker::Advance(History* h) {
  const uint64_t durable = durable_.load();
  size_t n = 0;
  while (n < h->recent.size() && h->recent[n].seq <= durable) {
    h->base = h->recent[n].version;
    h->base_del = h->recent[n].del;
    h->uncertain = false;
    n++;
  }
  h->recent.erase(h->recent.begin(), h->recent.begin() + n);
}

void DurabilityTracker::Reset(uint32_t key, uint32_t version, bool del) {
  History& h = keys_[key];
  h.base = version;
  h.base_del = del;
  h.uncertain = false;
  h.recent.clear();
}

DurabilityTracker::Floor DurabilityTracker::FloorOf(uint32_t key) {
  History& h = keys_[key];
  Advance(&h);
  Floor f;
  f.version = h.base;
  f.del_possible = h.base_del || h.uncertain;
  for (const Ack& a : h.recent) f.del_possible = f.del_possible || a.del;
  return f;
}

std::string DurabilityTracker::CheckPrefix(
    const std::vector<Found>& found, const std::vector<KeyState>& states) {
  // The earliest acknowledged write the power loss took.
  uint64_t lost_seq = UINT64_MAX;
  std::string lost;
  for (uint32_t k = 0; k < keys_.size(); k++) {
    History& h = keys_[k];
    Advance(&h);
    const Found& f = found[k];
    const KeyState& s = states[k];
    // A failed write that survived leaves no acknowledged write lost.
    if (f.present ? f.version > s.acked : s.maybe && s.maybe_del) continue;
    // An absent key kept, at most, its newest acknowledged Delete.
    uint32_t kept = f.present ? f.version : h.base;
    for (const Ack& a : h.recent) {
      if (!f.present && a.del) kept = a.version;
    }
    for (const Ack& a : h.recent) {
      if (a.version > kept && a.seq < lost_seq) {
        lost_seq = a.seq;
        lost = KeyString(k) + " v" + std::to_string(a.version);
      }
    }
  }
  if (lost.empty()) return "";
  for (uint32_t k = 0; k < keys_.size(); k++) {
    if (!found[k].present) continue;
    for (const Ack& a : keys_[k].recent) {
      if (a.version == found[k].version && a.issue >= lost_seq) {
        return KeyString(k) + " v" + std::to_string(a.version) +
               " survived, issued after " + lost +
               " was acknowledged, which was lost";
      }
    }
  }
  return "";
}

std::string CheckExact(const KeyState& s, const Found& found) {
  if (found.present) {
    if (found.version == s.acked && !s.acked_del) return "";
    if (s.maybe && found.version > s.acked && found.version <= s.top) {
      return "";
    }
  } else if (s.acked_del || (s.maybe && s.maybe_del)) {
    return "";
  }
  return "expected " + DescribeState(s);
}

std::string CheckAfterPowerLoss(const KeyState& s,
                                const DurabilityTracker::Floor& floor,
                                const Found& found) {
  const uint32_t upper = s.maybe ? s.top : s.acked;
  const std::string allowed =
      "expected at least v" + std::to_string(floor.version) +
      (floor.del_possible ? " (or a later delete)" : "") + ", " +
      DescribeState(s);
  if (!found.present) {
    return floor.del_possible || (s.maybe && s.maybe_del) ? "" : allowed;
  }
  const bool is_acked_delete = found.version == s.acked && s.acked_del;
  return found.version >= floor.version && found.version <= upper &&
                 !is_acked_delete
             ? ""
             : allowed;
}

std::string CheckBetween(const KeyState& lo, const KeyState& hi,
                         const Found& found) {
  const std::string allowed = "expected a version between " +
                              DescribeState(lo) + " and " + DescribeState(hi);
  if (!found.present) {
    // Versions in (lo.acked, hi.acked) are unknown: any may be a delete.
    const bool ok = lo.acked_del || hi.acked_del || hi.maybe_del ||
                    lo.maybe_del || hi.acked > lo.acked + 1;
    return ok ? "" : allowed;
  }
  const uint32_t v = found.version;
  const bool deleted =
      (v == lo.acked && lo.acked_del) || (v == hi.acked && hi.acked_del);
  return v >= lo.acked && v <= hi.top && !deleted ? "" : allowed;
}

std::string KeyString(uint32_t key) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%08x", key);
  return buf;
}

bool ParseKey(const leveldb::Slice& s, uint32_t* key) {
  if (s.size() != 9 || s[0] != 'k') return false;
  uint32_t k = 0;
  for (size_t i = 1; i < 9; i++) {
    const char c = s[i];
    uint32_t d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else {
      return false;
    }
    k = (k << 4) | d;
  }
  *key = k;
  return true;
}

namespace {

void PutFixed32(std::string* dst, uint32_t v) {
  for (int i = 0; i < 4; i++) dst->push_back(static_cast<char>(v >> (8 * i)));
}

uint32_t GetFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

}  // namespace

namespace {

uint32_t HashBytes(const std::string& bytes) {
  uint64_t h = 0;
  for (char c : bytes) h = Mix64(h ^ static_cast<uint8_t>(c));
  return static_cast<uint32_t>(h);
}

}  // namespace

std::string ValueFor(uint32_t key, uint32_t version, size_t max_len,
                     const BatchList& batch) {
  const uint64_t h = Mix64((uint64_t{key} << 32) | version);
  // Mostly short values, sometimes up to max_len.
  const size_t len =
      (h & 7) == 0 ? (h >> 8) % (max_len + 1) : (h >> 8) % (max_len / 8 + 1);
  std::string v;
  PutFixed32(&v, version);
  PutFixed32(&v, key);
  v.push_back(static_cast<char>(batch.size()));
  for (const BatchEntry& e : batch) {
    PutFixed32(&v, e.key);
    PutFixed32(&v, e.version);
    v.push_back(e.del ? 1 : 0);
  }
  PutFixed32(&v, HashBytes(v));
  const size_t end = v.size() + len;
  const bool repetitive = ((h >> 3) & 1) != 0;
  for (size_t i = 0; v.size() < end; i++) {
    const uint64_t word = Mix64(h + (repetitive ? i % 2 : i));
    for (int b = 0; b < 8 && v.size() < end; b++) {
      v.push_back(static_cast<char>(word >> (8 * b)));
    }
  }
  return v;
}

bool DecodeValue(uint32_t key, const leveldb::Slice& value, size_t max_len,
                 uint32_t* version, BatchList* batch) {
  constexpr size_t kEntry = 9;
  if (value.size() < 13) return false;
  const uint32_t v = GetFixed32(value.data());
  if (GetFixed32(value.data() + 4) != key) return false;
  const size_t n = static_cast<uint8_t>(value[8]);
  if (value.size() < 13 + n * kEntry) return false;
  BatchList entries;
  for (size_t i = 0; i < n; i++) {
    const char* p = value.data() + 9 + i * kEntry;
    entries.push_back(BatchEntry{GetFixed32(p), GetFixed32(p + 4), p[8] != 0});
  }
  // Regenerating the whole value checks the header's hash and the body.
  if (value != leveldb::Slice(ValueFor(key, v, max_len, entries))) {
    return false;
  }
  *version = v;
  *batch = std::move(entries);
  return true;
}

std::string CheckBatchEntry(const BatchEntry& e, const Found& found,
                            const KeyState& now) {
  if (found.present ? found.version >= e.version
                    : e.del || now.top > e.version) {
    return "";
  }
  return "its batch wrote " + KeyString(e.key) + " v" +
         std::to_string(e.version) + (e.del ? " (a delete)" : "") + ", found " +
         Describe(found);
}

std::string Describe(const Found& found) {
  return found.present ? "v" + std::to_string(found.version) : "absent";
}

}  // namespace stress

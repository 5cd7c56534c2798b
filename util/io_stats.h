// Read-path counters of one DB, shown by GetProperty("leveldb.io-stats").
// Incremented on the Get path with relaxed atomics: they are statistics, not
// synchronization, and must cost no more than an uncontended add.
#ifndef STORAGE_LEVELDB_UTIL_IO_STATS_H_
#define STORAGE_LEVELDB_UTIL_IO_STATS_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace leveldb {

struct IoStats {
  std::atomic<uint64_t> gets{0};               // DB::Get calls served
  std::atomic<uint64_t> table_probes{0};       // tables consulted by Gets
  std::atomic<uint64_t> filter_checks{0};      // probes that consulted a filter
  std::atomic<uint64_t> filter_rejections{0};  // probes a filter ruled out
  std::atomic<uint64_t> false_positives{0};    // data block read, key absent
  // Data block read, key absent, and no filter to ask (a segment without
  // loaded units, or a table without a filter).
  std::atomic<uint64_t> unfiltered_misses{0};
  std::atomic<uint64_t> data_block_reads{0};       // data blocks read by Gets
  std::atomic<uint64_t> data_block_cache_hits{0};  // of which from cache
  std::atomic<uint64_t> unit_loads{0};             // filter units loaded
  std::atomic<uint64_t> unit_load_bytes{0};        // bytes of units loaded
  std::atomic<uint64_t> unit_load_failures{0};     // unreadable/corrupt units
  std::atomic<uint64_t> unit_evictions{0};         // filter units evicted
  std::atomic<uint64_t> compaction_bytes_read{0};  // background input
  std::atomic<uint64_t> compaction_bytes_written{0};  // background output

  static void Add(std::atomic<uint64_t>* counter, uint64_t n = 1) {
    counter->fetch_add(n, std::memory_order_relaxed);
  }

  // Zeroes every counter (benchmarks reset between phases).
  void Reset();

  // One "name: value" line per counter, plus derived ratios.
  std::string ToString() const;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_IO_STATS_H_

// Throughput of CRC32C over buffers the size of a typical block (4 KiB) and
// of a large block or log chunk (64 KiB), for the dispatching entry point
// (SSE4.2 when available) and for the portable table-driven loop.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "util/crc32c.h"
#include "util/random.h"

namespace {

std::string MakeBuffer(size_t size) {
  leveldb::Random rnd(1234);
  std::string buf(size, '\0');
  for (char& c : buf) c = static_cast<char>(rnd.Uniform(256));
  return buf;
}

void BM_Crc32cExtend(benchmark::State& state) {
  const std::string buf = MakeBuffer(static_cast<size_t>(state.range(0)));
  uint32_t crc = 0;
  for (auto _ : state) {
    crc = leveldb::crc32c::Extend(crc, buf.data(), buf.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(buf.size()));
}
BENCHMARK(BM_Crc32cExtend)->Arg(4 << 10)->Arg(64 << 10);

void BM_Crc32cPortable(benchmark::State& state) {
  const std::string buf = MakeBuffer(static_cast<size_t>(state.range(0)));
  uint32_t crc = 0;
  for (auto _ : state) {
    crc = leveldb::crc32c::ExtendPortable(crc, buf.data(), buf.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(buf.size()));
}
BENCHMARK(BM_Crc32cPortable)->Arg(4 << 10)->Arg(64 << 10);

}  // namespace

BENCHMARK_MAIN();

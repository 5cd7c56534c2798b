#include "db/db_impl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/builder.h"
#include "db/db_iter.h"
#include "db/dbformat.h"
#include "db/elastic_env_switch.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/memtable.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/write_batch_internal.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/mq_schedule.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/io_stats.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/merger.h"
#include "table/table_builder_access.h"
#include "util/hash64.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

// Descriptors kept for things other than open tables (log, manifest, LOG,
// LOCK, ...); the rest of max_open_files goes to the table cache.
constexpr int kNumNonTableCacheFiles = 10;

// Size of the block cache created when the caller supplies none.
constexpr size_t kDefaultBlockCacheBytes = 8 << 20;

// Group commit: a group grows to at most this many bytes ...
constexpr size_t kMaxGroupBytes = 1 << 20;
// ... except that a small first batch only gets this much company, so that
// a small write is not slowed down much by others.
constexpr size_t kSmallBatchBytes = 128 << 10;

template <class T, class V>
void ClipToRange(T* value, V low, V high) {
  if (static_cast<V>(*value) > high) *value = high;
  if (static_cast<V>(*value) < low) *value = low;
}

int TableCacheSize(const Options& sanitized) {
  return sanitized.max_open_files - kNumNonTableCacheFiles;
}

SequenceNumber SnapshotSequence(const Snapshot* snapshot) {
  return static_cast<const SnapshotImpl*>(snapshot)->sequence_number();
}

// ElasticBF's manager when the (sanitized) filter policy is elastic, else
// null. Its unit-load failures go to the DB's info log and its counters to
// the DB's io-stats; it opens the DB's table files to load units and to
// register, in the background, the live files no Get has opened yet.
MQSchedule* NewElasticSchedule(const std::string& dbname,
                               const Options& sanitized, IoStats* stats) {
  const ElasticFilterPolicy* policy =
      AsElasticPolicy(sanitized.filter_policy, nullptr);
  if (policy == nullptr) return nullptr;
  MQScheduleOptions mq_options;
  mq_options.elastic = policy->options();
  mq_options.info_log = sanitized.info_log;
  mq_options.stats = stats;
  mq_options.opener = std::make_shared<DBTableOpener>(dbname, sanitized);
  mq_options.register_live_files = true;
  return new MQSchedule(mq_options);
}

}  // namespace

// A thread inside Write(), queued until it leads a group or a leader has
// written its batch for it.
struct DBImpl::Writer {
  explicit Writer(port::Mutex* mu) : cv(mu) {}

  Status status;
  WriteBatch* batch = nullptr;  // null: only make room (force a switch)
  bool sync = false;
  bool done = false;
  port::CondVar cv;
};

// A manual compaction request of one level, consumed piece by piece by the
// background thread.
struct DBImpl::ManualCompaction {
  int level = 0;
  bool done = false;
  const InternalKey* begin = nullptr;  // null: from the first key
  const InternalKey* end = nullptr;    // null: to the last key
  InternalKey resume_from;             // where the next piece starts
};

// Everything a running compaction accumulates.
struct DBImpl::CompactionState {
  struct Output {
    uint64_t number = 0;
    uint64_t file_size = 0;
    InternalKey smallest;
    InternalKey largest;
    // ElasticBF: what its segments inherited (null: nothing to record).
    std::shared_ptr<const InheritedHotness> hotness;
  };

  explicit CompactionState(Compaction* c) : compaction(c) {}

  Output* current_output() { return &outputs.back(); }

  Compaction* const compaction;

  // Entries at or below this sequence number are visible to no snapshot
  // other than the newest version of each key.
  SequenceNumber smallest_snapshot = 0;

  std::vector<Output> outputs;

  // The output being written, if any.
  WritableFile* outfile = nullptr;
  TableBuilder* builder = nullptr;

  uint64_t total_bytes = 0;

  // ElasticBF: the inputs' segments, for hotness inheritance (null: off).
  std::unique_ptr<HotnessKeeper::CompactionInputs> hotness_inputs;
};

Options SanitizeOptions(const std::string& dbname,
                        const InternalKeyComparator* icmp,
                        const InternalFilterPolicy* ipolicy,
                        const Options& src) {
  Options result = src;
  result.comparator = icmp;
  result.filter_policy = (src.filter_policy != nullptr) ? ipolicy : nullptr;
  ClipToRange(&result.max_open_files, 64 + kNumNonTableCacheFiles, 50000);
  ClipToRange(&result.write_buffer_size, size_t{64} << 10, size_t{1} << 30);
  ClipToRange(&result.max_file_size, size_t{1} << 20, size_t{1} << 30);
  ClipToRange(&result.block_size, size_t{1} << 10, size_t{4} << 20);
  if (result.info_log == nullptr) {
    // The directory may not exist yet; the LOG goes inside it.
    src.env->CreateDir(dbname);
    src.env->RenameFile(InfoLogFileName(dbname), OldInfoLogFileName(dbname));
    Status s = src.env->NewLogger(InfoLogFileName(dbname), &result.info_log);
    if (!s.ok()) result.info_log = nullptr;  // run without an info log
  }
  if (result.block_cache == nullptr) {
    result.block_cache = NewLRUCache(kDefaultBlockCacheBytes);
  }
  return result;
}

DBImpl::DBImpl(const Options& raw_options, const std::string& dbname,
               std::unique_ptr<const FilterPolicy> owned_policy)
    : env_(raw_options.env),
      owned_filter_policy_(std::move(owned_policy)),
      internal_comparator_(raw_options.comparator),
      internal_filter_policy_(raw_options.filter_policy),
      options_(SanitizeOptions(dbname, &internal_comparator_,
                               &internal_filter_policy_, raw_options)),
      owns_info_log_(options_.info_log != raw_options.info_log),
      owns_cache_(options_.block_cache != raw_options.block_cache),
      dbname_(dbname),
      // Files recovered at open register in the background once the
      // recovered version reports them.
      elastic_(NewElasticSchedule(dbname_, options_, &io_stats_)),
      table_cache_(new TableCache(dbname_, options_, TableCacheSize(options_),
                                  elastic_)),
      db_lock_(nullptr),
      shutting_down_(false),
      background_work_finished_signal_(&mutex_),
      mem_(nullptr),
      imm_(nullptr),
      has_imm_(false),
      logfile_(nullptr),
      logfile_number_(0),
      log_(nullptr),
      seed_(0),
      tmp_batch_(new WriteBatch),
      background_compaction_scheduled_(false),
      manual_compaction_(nullptr),
      versions_(new VersionSet(dbname_, &options_, table_cache_,
                               &internal_comparator_, elastic_)),
      hotness_(env_, dbname_, options_.info_log, user_comparator(), elastic_,
               versions_, table_cache_, &mutex_) {}

DBImpl::~DBImpl() {
  // Let a running compaction notice the shutdown and finish.
  mutex_.Lock();
  shutting_down_.store(true, std::memory_order_release);
  while (background_compaction_scheduled_) {
    background_work_finished_signal_.Wait();
  }
  // A clean close records the latest hotness, so a reopen starts from it.
  // After a background error the MANIFEST is left alone.
  if (open_complete_ && bg_error_.ok() && hotness_.active()) {
    Status s = CheckpointHotness();
    if (!s.ok()) {
      Log(options_.info_log, "ElasticBF: hotness not recorded at close: %s",
          s.ToString().c_str());
    }
  }
  mutex_.Unlock();

  if (db_lock_ != nullptr) env_->UnlockFile(db_lock_);

  delete versions_;
  if (mem_ != nullptr) mem_->Unref();
  if (imm_ != nullptr) imm_->Unref();
  delete tmp_batch_;
  delete log_;
  delete logfile_;
  delete prev_logfile_;
  // The MQSchedule's unit manager thread reads table files: stop it first.
  // Tables hold blocks of the block cache: close them before the cache.
  // Both log to the info log, which goes last.
  delete elastic_;
  delete table_cache_;

  if (owns_info_log_) delete options_.info_log;
  if (owns_cache_) delete options_.block_cache;
}

// ---------------------------------------------------------------------------
// Creation and recovery

Status DBImpl::NewDB() {
  VersionEdit initial;
  initial.SetComparatorName(user_comparator()->Name());
  initial.SetLogNumber(0);
  initial.SetNextFile(2);
  initial.SetLastSequence(0);

  const std::string manifest = DescriptorFileName(dbname_, 1);
  WritableFile* file = nullptr;
  Status s = env_->NewWritableFile(manifest, &file);
  if (!s.ok()) return s;
  {
    log::Writer writer(file);
    std::string record;
    initial.EncodeTo(&record);
    s = writer.AddRecord(record);
    if (s.ok()) s = file->Sync();
    if (s.ok()) s = file->Close();
  }
  delete file;
  if (s.ok()) s = SetCurrentFile(env_, dbname_, 1);
  if (!s.ok()) env_->RemoveFile(manifest);
  return s;
}

void DBImpl::MaybeIgnoreError(Status* s) const {
  if (s->ok() || options_.paranoid_checks) return;
  Log(options_.info_log, "Ignoring error %s", s->ToString().c_str());
  *s = Status::OK();
}

Status DBImpl::Recover(VersionEdit* edit, bool* save_manifest) {
  mutex_.AssertHeld();

  // The directory may already exist; only the lock below must succeed.
  env_->CreateDir(dbname_);
  Status s = env_->LockFile(LockFileName(dbname_), &db_lock_);
  if (!s.ok()) return s;

  if (!env_->FileExists(CurrentFileName(dbname_))) {
    if (!options_.create_if_missing) {
      return Status::InvalidArgument(
          dbname_, "does not exist (create_if_missing is false)");
    }
    Log(options_.info_log, "Creating DB %s since it was missing.",
        dbname_.c_str());
    s = NewDB();
    if (!s.ok()) return s;
  } else if (options_.error_if_exists) {
    return Status::InvalidArgument(dbname_, "exists (error_if_exists is true)");
  }

  s = versions_->Recover(save_manifest);
  if (!s.ok()) return s;

  // Every table the MANIFEST lists must be present, and every log at or
  // after the MANIFEST's log number holds writes to replay.
  std::vector<std::string> children;
  s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) return s;
  std::set<uint64_t> missing;
  versions_->AddLiveFiles(&missing);
  const uint64_t min_log = versions_->LogNumber();
  const uint64_t prev_log = versions_->PrevLogNumber();
  std::vector<uint64_t> logs;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    missing.erase(number);
    if (type == kLogFile && (number >= min_log || number == prev_log)) {
      logs.push_back(number);
    }
  }
  if (!missing.empty()) {
    char buf[50];
    std::snprintf(buf, sizeof(buf), "%d missing files; e.g.",
                  static_cast<int>(missing.size()));
    return Status::Corruption(buf, TableFileName(dbname_, *missing.begin()));
  }

  // Replay in the order the logs were written.
  std::sort(logs.begin(), logs.end());
  SequenceNumber max_sequence = 0;
  for (size_t i = 0; i < logs.size(); i++) {
    s = RecoverLogFile(logs[i], i + 1 == logs.size(), save_manifest, edit,
                       &max_sequence);
    if (!s.ok()) return s;
    // The file number may be newer than the MANIFEST's next-file counter
    // if the MANIFEST was written before the log was created.
    versions_->MarkFileNumberUsed(logs[i]);
  }
  if (versions_->LastSequence() < max_sequence) {
    versions_->SetLastSequence(max_sequence);
  }
  return Status::OK();
}

namespace {

// Reports corrupt log records found during recovery. With `status` set
// (paranoid_checks) the first one fails the recovery.
class RecoveryReporter : public log::Reader::Reporter {
 public:
  RecoveryReporter(Logger* info_log, const std::string& fname, Status* status)
      : info_log_(info_log), fname_(fname), status_(status) {}

  void Corruption(size_t bytes, const Status& s) override {
    Log(info_log_, "%s%s: dropping %d bytes; %s",
        (status_ == nullptr ? "(ignoring error) " : ""), fname_.c_str(),
        static_cast<int>(bytes), s.ToString().c_str());
    if (status_ != nullptr && status_->ok()) *status_ = s;
    dropped_ = true;
  }

  bool dropped() const { return dropped_; }

 private:
  bool dropped_ = false;
  Logger* const info_log_;
  const std::string fname_;
  Status* const status_;
};

}  // namespace

Status DBImpl::RecoverLogFile(uint64_t log_number, bool last_log,
                              bool* save_manifest, VersionEdit* edit,
                              SequenceNumber* max_sequence) {
  mutex_.AssertHeld();

  const std::string fname = LogFileName(dbname_, log_number);
  SequentialFile* file = nullptr;
  Status status = env_->NewSequentialFile(fname, &file);
  if (!status.ok()) {
    MaybeIgnoreError(&status);
    return status;
  }

  RecoveryReporter reporter(options_.info_log, fname,
                            options_.paranoid_checks ? &status : nullptr);
  // Checksums on: a damaged record is dropped whole rather than replayed
  // with garbage (such as a huge sequence number).
  log::Reader reader(file, &reporter, true /*checksum*/, 0 /*offset*/);
  Log(options_.info_log, "Recovering log #%" PRIu64, log_number);

  std::string scratch;
  Slice record;
  WriteBatch batch;
  MemTable* mem = nullptr;
  int flushes = 0;
  while (reader.ReadRecord(&record, &scratch) && status.ok()) {
    if (record.size() < WriteBatchInternal::kHeaderSize) {
      reporter.Corruption(record.size(),
                          Status::Corruption("log record too small"));
      continue;
    }
    WriteBatchInternal::SetContents(&batch, record);

    if (mem == nullptr) {
      mem = new MemTable(internal_comparator_);
      mem->Ref();
    }
    status = WriteBatchInternal::InsertInto(&batch, mem);
    MaybeIgnoreError(&status);
    if (!status.ok()) break;

    const int count = WriteBatchInternal::Count(&batch);
    if (count > 0) {
      const SequenceNumber last = WriteBatchInternal::Sequence(&batch) +
                                  static_cast<SequenceNumber>(count) - 1;
      if (last > *max_sequence) *max_sequence = last;
    }

    if (mem->ApproximateMemoryUsage() > options_.write_buffer_size) {
      flushes++;
      *save_manifest = true;
      status = WriteLevel0Table(mem, edit, nullptr);
      mem->Unref();
      mem = nullptr;
      if (!status.ok()) break;  // a write error is never ignored
    }
  }
  const uint64_t end_of_records = reader.EndOfLastRecord();
  delete file;

  // Keep appending to the last log when nothing of it had to be flushed
  // and it ends with a whole record.
  if (status.ok() && options_.reuse_logs && last_log && flushes == 0 &&
      !reporter.dropped()) {
    uint64_t size = 0;
    WritableFile* appendable = nullptr;
    if (env_->GetFileSize(fname, &size).ok() &&
        log::Reader::AppendableAt(end_of_records, size) &&
        env_->NewAppendableFile(fname, &appendable).ok()) {
      Log(options_.info_log, "Reusing old log %s", fname.c_str());
      logfile_ = appendable;
      log_ = new log::Writer(appendable, size);
      logfile_number_ = log_number;
      if (mem != nullptr) {
        mem_ = mem;
        mem = nullptr;
      } else {
        mem_ = new MemTable(internal_comparator_);
        mem_->Ref();
      }
    }
  }

  if (mem != nullptr) {
    // The log will not be kept: move what it held into a table.
    if (status.ok()) {
      *save_manifest = true;
      status = WriteLevel0Table(mem, edit, nullptr);
    }
    mem->Unref();
  }
  return status;
}

Status DBImpl::WriteLevel0Table(MemTable* mem, VersionEdit* edit,
                                Version* base) {
  mutex_.AssertHeld();
  const uint64_t start_micros = env_->NowMicros();
  FileMetaData meta;
  meta.number = versions_->NewFileNumber();
  pending_outputs_.insert(meta.number);
  Iterator* iter = mem->NewIterator();
  Log(options_.info_log, "Level-0 table #%" PRIu64 ": started", meta.number);

  Status s;
  {
    mutex_.Unlock();
    s = BuildTable(dbname_, env_, options_, table_cache_, iter, &meta);
    mutex_.Lock();
  }
  Log(options_.info_log, "Level-0 table #%" PRIu64 ": %" PRIu64 " bytes %s",
      meta.number, meta.file_size, s.ToString().c_str());
  delete iter;
  pending_outputs_.erase(meta.number);

  // An empty memtable produces no file and nothing to record.
  int level = 0;
  if (s.ok() && meta.file_size > 0) {
    if (base != nullptr) {
      level = base->PickLevelForMemTableOutput(meta.smallest.user_key(),
                                               meta.largest.user_key());
    }
    edit->AddFile(level, meta.number, meta.file_size, meta.smallest,
                  meta.largest);
  }

  CompactionStats stats;
  stats.micros = static_cast<int64_t>(env_->NowMicros() - start_micros);
  stats.bytes_written = static_cast<int64_t>(meta.file_size);
  stats_[level].Add(stats);
  IoStats::Add(&io_stats_.compaction_bytes_written, meta.file_size);
  level0_cleanup_.OnFlush(meta.file_size);
  return s;
}

// ---------------------------------------------------------------------------
// Obsolete files

void DBImpl::RemoveObsoleteFiles() {
  mutex_.AssertHeld();
  if (!bg_error_.ok()) {
    // After a failure it is unknown whether the last edit reached the
    // MANIFEST, so no file can safely be called garbage.
    return;
  }

  std::set<uint64_t> live = pending_outputs_;
  versions_->AddLiveFiles(&live);

  std::vector<std::string> children;
  env_->GetChildren(dbname_, &children);  // on error, delete nothing
  std::vector<std::string> doomed;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    bool keep = true;
    switch (type) {
      case kLogFile:
        keep = number >= versions_->LogNumber() ||
               number == versions_->PrevLogNumber();
        break;
      case kDescriptorFile:
        // A newer MANIFEST may be in the middle of being written.
        keep = number >= versions_->ManifestFileNumber();
        break;
      case kTableFile:
      case kTempFile:
        keep = live.count(number) > 0;
        break;
      case kCurrentFile:
      case kDBLockFile:
      case kInfoLogFile:
        keep = true;
        break;
    }
    if (keep) continue;
    doomed.push_back(child);
    if (type == kTableFile) table_cache_->Evict(number);
    Log(options_.info_log, "Delete type=%d #%" PRIu64, static_cast<int>(type),
        number);
  }

  // The files are unreachable now; delete them without blocking others.
  mutex_.Unlock();
  for (const std::string& name : doomed) {
    env_->RemoveFile(dbname_ + "/" + name);
  }
  mutex_.Lock();
}

// ---------------------------------------------------------------------------
// Background work

void DBImpl::RecordBackgroundError(const Status& s) {
  mutex_.AssertHeld();
  if (!bg_error_.ok()) return;  // keep the first error
  bg_error_ = s;
  Log(options_.info_log, "Background error, database is now read-only: %s",
      s.ToString().c_str());
  background_work_finished_signal_.SignalAll();
}

void DBImpl::MaybeScheduleCompaction() {
  mutex_.AssertHeld();
  if (background_compaction_scheduled_) return;  // one at a time
  if (shutting_down_.load(std::memory_order_acquire)) return;
  if (!bg_error_.ok()) return;
  if (imm_ == nullptr && manual_compaction_ == nullptr &&
      !versions_->NeedsCompaction() && !level0_cleanup_.due() &&
      !hotness_.CheckpointDue()) {
    return;
  }
  background_compaction_scheduled_ = true;
  env_->Schedule(&DBImpl::BGWork, this);
}

void DBImpl::BGWork(void* db) {
  reinterpret_cast<DBImpl*>(db)->BackgroundCall();
}

void DBImpl::BackgroundCall() {
  MutexLock lock(&mutex_);
  assert(background_compaction_scheduled_);
  if (!shutting_down_.load(std::memory_order_acquire) && bg_error_.ok()) {
    BackgroundCompaction();
  }
  if (!shutting_down_.load(std::memory_order_acquire) && bg_error_.ok() &&
      hotness_.CheckpointDue()) {
    CheckpointHotness();  // a failure is logged and retried later
  }
  background_compaction_scheduled_ = false;
  // A compaction can leave a level over its limit: look again.
  MaybeScheduleCompaction();
  background_work_finished_signal_.SignalAll();
}

void DBImpl::CompactMemTable() {
  mutex_.AssertHeld();
  assert(imm_ != nullptr);

  VersionEdit edit;
  Version* base = versions_->current();
  base->Ref();
  Status s = WriteLevel0Table(imm_, &edit, base);
  base->Unref();

  if (s.ok() && shutting_down_.load(std::memory_order_acquire)) {
    s = Status::IOError("Deleting DB during memtable compaction");
  }
  if (s.ok()) {
    // The flushed memtable's log, and any older one, are no longer needed.
    edit.SetPrevLogNumber(0);
    edit.SetLogNumber(logfile_number_);
    s = versions_->LogAndApply(&edit, &mutex_);
  }
  if (!s.ok()) {
    RecordBackgroundError(s);
    return;
  }
  imm_->Unref();
  imm_ = nullptr;
  has_imm_.store(false, std::memory_order_release);
  ReleasePreviousLog();  // its writes are durable in the new table
  RemoveObsoleteFiles();
}

void DBImpl::BackgroundCompaction() {
  mutex_.AssertHeld();

  if (imm_ != nullptr) {
    CompactMemTable();
    return;
  }

  Compaction* c;
  ManualCompaction* manual = manual_compaction_;
  InternalKey manual_end;
  if (manual != nullptr) {
    c = versions_->CompactRange(manual->level, manual->begin, manual->end);
    manual->done = (c == nullptr);
    if (c != nullptr) {
      // A piece may stop short of manual->end (output size limits).
      manual_end = c->input(0, c->num_input_files(0) - 1)->largest;
    }
    Log(options_.info_log,
        "Manual compaction at level-%d from %s .. %s; will stop at %s\n",
        manual->level,
        (manual->begin ? manual->begin->DebugString().c_str() : "(begin)"),
        (manual->end ? manual->end->DebugString().c_str() : "(end)"),
        (manual->done ? "(end)" : manual_end.DebugString().c_str()));
  } else {
    c = PickAutomaticCompaction();
  }
  const SequenceNumber last_sequence = versions_->LastSequence();
  const bool ran = c != nullptr;
  bool merged = false;  // ran DoCompactionWork (not a move)

  Status status;
  if (c == nullptr) {
    // Nothing to do.
  } else if (manual == nullptr && c->IsTrivialMove()) {
    // One file that overlaps nothing below: relabel its level.
    FileMetaData* f = c->input(0, 0);
    c->edit()->RemoveFile(c->level(), f->number);
    c->edit()->AddFile(c->level() + 1, f->number, f->file_size, f->smallest,
                       f->largest);
    hotness_.RecordMove(c->edit(), *f);
    status = versions_->LogAndApply(c->edit(), &mutex_);
    if (!status.ok()) RecordBackgroundError(status);
    VersionSet::LevelSummaryStorage summary;
    Log(options_.info_log,
        "Moved #%" PRIu64 " to level-%d %" PRIu64 " bytes %s: %s\n", f->number,
        c->level() + 1, f->file_size, status.ToString().c_str(),
        versions_->LevelSummary(&summary));
  } else {
    CompactionState* compact = new CompactionState(c);
    status = DoCompactionWork(compact);
    merged = true;
    if (!status.ok()) RecordBackgroundError(status);
    CleanupCompaction(compact);
    c->ReleaseInputs();
    RemoveObsoleteFiles();
  }
  delete c;

  if (!status.ok() && !shutting_down_.load(std::memory_order_acquire)) {
    Log(options_.info_log, "Compaction error: %s", status.ToString().c_str());
  }

  if (manual != nullptr) {
    if (!status.ok()) manual->done = true;
    if (!manual->done) {
      // Continue after the part just compacted.
      manual->resume_from = manual_end;
      manual->begin = &manual->resume_from;
    }
    manual_compaction_ = nullptr;
  } else if (ran && status.ok()) {
    // A move takes no time, so for it quiet means no write since the last
    // compaction ended; a merge is quiet if no write arrived while it ran.
    const SequenceNumber since = merged ? last_sequence : quiet_since_;
    level0_cleanup_.OnCompactionEnd(versions_->LastSequence() != since,
                                    versions_->NumLevelFiles(0),
                                    HasLevel1Leftover());
  }
  if (ran) quiet_since_ = versions_->LastSequence();
}

bool DBImpl::NoteTableRead() {
  mutex_.AssertHeld();
  return level0_cleanup_.OnTableRead(versions_->NumLevelFiles(0), [this] {
    mutex_.AssertHeld();  // called at once, under the caller's lock
    return versions_->NumLevelBytes(0) + versions_->NumLevelBytes(1);
  });
}

Compaction* DBImpl::PickAutomaticCompaction() {
  mutex_.AssertHeld();
  Compaction* c = versions_->PickCompaction();
  if (c != nullptr || !level0_cleanup_.due()) return c;
  const bool level1 =
      level0_cleanup_.due_step() == Level0Cleanup::Step::kLevel1;
  level0_cleanup_.Started();
  c = versions_->CompactRange(level1 ? 1 : 0, nullptr, nullptr);
  if (c != nullptr && level1 && !c->IsTrivialMove() &&
      !level0_cleanup_.AffordsLevel1(c->InputBytes())) {
    delete c;  // rewrites more than the writes since the last step
    c = nullptr;
  }
  return c;
}

// ElasticBF screens a level-1 leftover with units that follow the reads,
// so there the leftover is left to seek compaction; with static filters
// (or none) every Get that reaches it pays their false-positive rate.
bool DBImpl::HasLevel1Leftover() {
  mutex_.AssertHeld();
  return elastic_ == nullptr && versions_->NumLevelFiles(1) > 0;
}

void DBImpl::CleanupCompaction(CompactionState* compact) {
  mutex_.AssertHeld();
  if (compact->builder != nullptr) {
    // Stopped half-way (shutdown or error): drop the partial output.
    compact->builder->Abandon();
    delete compact->builder;
  }
  delete compact->outfile;
  for (const CompactionState::Output& out : compact->outputs) {
    pending_outputs_.erase(out.number);
  }
  delete compact;
}

Status DBImpl::OpenCompactionOutputFile(CompactionState* compact) {
  assert(compact->builder == nullptr);
  uint64_t number;
  {
    MutexLock lock(&mutex_);
    number = versions_->NewFileNumber();
    pending_outputs_.insert(number);
    CompactionState::Output out;
    out.number = number;
    compact->outputs.push_back(out);
  }
  Status s =
      env_->NewWritableFile(TableFileName(dbname_, number), &compact->outfile);
  if (s.ok()) {
    compact->builder =
        ElasticTableBuilderAccess::NewBuilder(
            options_, table_cache_->filter_setup(), compact->outfile)
            .release();
  }
  return s;
}

Status DBImpl::FinishCompactionOutputFile(CompactionState* compact,
                                          Iterator* input) {
  assert(compact->builder != nullptr);
  CompactionState::Output* out = compact->current_output();
  const uint64_t number = out->number;

  // Never finish a table from input that went bad.
  Status s = input->status();
  const uint64_t entries = compact->builder->NumEntries();
  if (s.ok()) {
    s = compact->builder->Finish();
  } else {
    compact->builder->Abandon();
  }
  if (s.ok()) {
    // Before the table is first opened below.
    out->hotness = hotness_.InheritForOutput(
        compact->hotness_inputs.get(), number,
        ElasticTableBuilderAccess::SegmentRanges(*compact->builder));
  }
  const uint64_t bytes = compact->builder->FileSize();
  out->file_size = bytes;
  compact->total_bytes += bytes;
  delete compact->builder;
  compact->builder = nullptr;

  if (s.ok()) s = compact->outfile->Sync();
  if (s.ok()) s = compact->outfile->Close();
  delete compact->outfile;
  compact->outfile = nullptr;

  if (s.ok() && entries > 0) {
    // Open the new table to check it is usable before it is installed.
    Iterator* check = table_cache_->NewIterator(ReadOptions(), number, bytes);
    s = check->status();
    delete check;
    if (s.ok()) {
      Log(options_.info_log,
          "Generated table #%" PRIu64 "@%d: %" PRIu64 " keys, %" PRIu64
          " bytes",
          number, compact->compaction->level(), entries, bytes);
    }
  }
  return s;
}

Status DBImpl::InstallCompactionResults(CompactionState* compact) {
  mutex_.AssertHeld();
  Compaction* c = compact->compaction;
  Log(options_.info_log, "Compacted %d@%d + %d@%d files => %" PRIu64 " bytes",
      c->num_input_files(0), c->level(), c->num_input_files(1), c->level() + 1,
      compact->total_bytes);

  c->AddInputDeletions(c->edit());
  for (const CompactionState::Output& out : compact->outputs) {
    c->edit()->AddFile(c->level() + 1, out.number, out.file_size, out.smallest,
                       out.largest);
    hotness_.RecordOutput(c->edit(), out.number, out.hotness);
  }
  return versions_->LogAndApply(c->edit(), &mutex_);
}

Status DBImpl::CheckpointHotness() {
  bool new_manifest = false;
  Status s = hotness_.Checkpoint(&new_manifest);
  if (new_manifest) RemoveObsoleteFiles();  // the MANIFEST it replaced
  return s;
}

namespace {

// Walks the merged compaction input in order and tells which entries no
// reader can ever see again.
class ObsoleteEntryFilter {
 public:
  ObsoleteEntryFilter(const Comparator* ucmp, Compaction* c,
                      SequenceNumber smallest_snapshot)
      : ucmp_(ucmp), compaction_(c), smallest_snapshot_(smallest_snapshot) {}

  bool ShouldDrop(const Slice& internal_key) {
    ParsedInternalKey ikey;
    if (!ParseInternalKey(internal_key, &ikey)) {
      // Keep corrupt entries (the table layer reports them), and forget
      // the key history so nothing after them is wrongly dropped.
      have_key_ = false;
      current_key_.clear();
      newer_sequence_ = kMaxSequenceNumber;
      return false;
    }
    if (!have_key_ || ucmp_->Compare(ikey.user_key, current_key_) != 0) {
      have_key_ = true;
      current_key_.assign(ikey.user_key.data(), ikey.user_key.size());
      newer_sequence_ = kMaxSequenceNumber;
    }

    bool drop = false;
    if (newer_sequence_ <= smallest_snapshot_) {
      // A newer entry of this key is visible to every snapshot.
      drop = true;
    } else if (ikey.type == kTypeDeletion &&
               ikey.sequence <= smallest_snapshot_ &&
               compaction_->IsBaseLevelForKey(ikey.user_key)) {
      // Nothing older remains below to be hidden, and every snapshot sees
      // the deletion: the marker itself can go. Older entries of the key
      // in this compaction are dropped by the rule above.
      drop = true;
    }
    newer_sequence_ = ikey.sequence;
    return drop;
  }

 private:
  const Comparator* const ucmp_;
  Compaction* const compaction_;
  const SequenceNumber smallest_snapshot_;
  std::string current_key_;
  bool have_key_ = false;
  SequenceNumber newer_sequence_ = kMaxSequenceNumber;
};

}  // namespace

Status DBImpl::DoCompactionWork(CompactionState* compact) {
  mutex_.AssertHeld();
  const uint64_t start_micros = env_->NowMicros();
  uint64_t imm_micros = 0;  // time spent flushing memtables meanwhile
  Compaction* const c = compact->compaction;

  Log(options_.info_log, "Compacting %d@%d + %d@%d files",
      c->num_input_files(0), c->level(), c->num_input_files(1), c->level() + 1);
  assert(versions_->NumLevelFiles(c->level()) > 0);
  assert(compact->builder == nullptr);

  compact->smallest_snapshot = snapshots_.empty()
                                   ? versions_->LastSequence()
                                   : snapshots_.oldest()->sequence_number();
  ObsoleteEntryFilter filter(user_comparator(), c, compact->smallest_snapshot);

  Iterator* input = versions_->MakeInputIterator(c);

  // The merge runs without the mutex.
  mutex_.Unlock();
  compact->hotness_inputs = hotness_.BeginCompaction(c);

  Status status;
  input->SeekToFirst();
  while (input->Valid() && !shutting_down_.load(std::memory_order_acquire)) {
    // Writers may be blocked on a full memtable: flush it first.
    if (has_imm_.load(std::memory_order_relaxed)) {
      const uint64_t imm_start = env_->NowMicros();
      mutex_.Lock();
      if (imm_ != nullptr) {
        CompactMemTable();
        background_work_finished_signal_.SignalAll();
      }
      mutex_.Unlock();
      imm_micros += env_->NowMicros() - imm_start;
    }

    const Slice key = input->key();
    // ShouldStopBefore tracks grandparent overlap, so it sees every key.
    if (c->ShouldStopBefore(key) && compact->builder != nullptr) {
      status = FinishCompactionOutputFile(compact, input);
      if (!status.ok()) break;
    }

    if (!filter.ShouldDrop(key)) {
      if (compact->builder == nullptr) {
        status = OpenCompactionOutputFile(compact);
        if (!status.ok()) break;
      }
      CompactionState::Output* out = compact->current_output();
      if (compact->builder->NumEntries() == 0) out->smallest.DecodeFrom(key);
      out->largest.DecodeFrom(key);
      compact->builder->Add(key, input->value());

      if (compact->builder->FileSize() >= c->MaxOutputFileSize()) {
        status = FinishCompactionOutputFile(compact, input);
        if (!status.ok()) break;
      }
    }
    input->Next();
  }

  if (status.ok() && shutting_down_.load(std::memory_order_acquire)) {
    status = Status::IOError("Deleting DB during compaction");
  }
  if (status.ok() && compact->builder != nullptr) {
    status = FinishCompactionOutputFile(compact, input);
  }
  if (status.ok()) status = input->status();
  delete input;
  input = nullptr;

  CompactionStats stats;
  stats.micros =
      static_cast<int64_t>(env_->NowMicros() - start_micros - imm_micros);
  for (int which = 0; which < 2; which++) {
    for (int i = 0; i < c->num_input_files(which); i++) {
      stats.bytes_read += static_cast<int64_t>(c->input(which, i)->file_size);
    }
  }
  for (const CompactionState::Output& out : compact->outputs) {
    stats.bytes_written += static_cast<int64_t>(out.file_size);
  }

  IoStats::Add(&io_stats_.compaction_bytes_read,
               static_cast<uint64_t>(stats.bytes_read));
  IoStats::Add(&io_stats_.compaction_bytes_written,
               static_cast<uint64_t>(stats.bytes_written));

  mutex_.Lock();
  stats_[c->level() + 1].Add(stats);

  if (status.ok()) status = InstallCompactionResults(compact);
  if (!status.ok()) RecordBackgroundError(status);
  VersionSet::LevelSummaryStorage summary;
  Log(options_.info_log, "compacted to: %s", versions_->LevelSummary(&summary));
  return status;
}

// ---------------------------------------------------------------------------
// Reads

namespace {

// What an internal iterator keeps alive until it is deleted.
struct IterState {
  IterState(port::Mutex* mutex, MemTable* mem, MemTable* imm, Version* version)
      : mu(mutex), mem(mem), imm(imm), version(version) {}

  port::Mutex* const mu;
  MemTable* const mem GUARDED_BY(mu);
  MemTable* const imm GUARDED_BY(mu);  // may be null
  Version* const version GUARDED_BY(mu);
};

void ReleaseIterState(void* arg, void* /*unused*/) {
  IterState* state = reinterpret_cast<IterState*>(arg);
  state->mu->Lock();
  state->mem->Unref();
  if (state->imm != nullptr) state->imm->Unref();
  state->version->Unref();
  state->mu->Unlock();
  delete state;
}

}  // namespace

Iterator* DBImpl::NewInternalIterator(const ReadOptions& options,
                                      SequenceNumber* latest_snapshot,
                                      uint32_t* seed) {
  MutexLock lock(&mutex_);
  *latest_snapshot = versions_->LastSequence();

  std::vector<Iterator*> children;
  children.push_back(mem_->NewIterator());
  mem_->Ref();
  if (imm_ != nullptr) {
    children.push_back(imm_->NewIterator());
    imm_->Ref();
  }
  Version* current = versions_->current();
  current->AddIterators(options, &children);
  current->Ref();

  Iterator* merged = NewMergingIterator(&internal_comparator_, children.data(),
                                        static_cast<int>(children.size()));
  merged->RegisterCleanup(&ReleaseIterState,
                          new IterState(&mutex_, mem_, imm_, current), nullptr);
  *seed = ++seed_;
  return merged;
}

Iterator* DBImpl::TEST_NewInternalIterator() {
  SequenceNumber ignored_sequence;
  uint32_t ignored_seed;
  return NewInternalIterator(ReadOptions(), &ignored_sequence, &ignored_seed);
}

int64_t DBImpl::TEST_MaxNextLevelOverlappingBytes() {
  MutexLock lock(&mutex_);
  return versions_->MaxNextLevelOverlappingBytes();
}

ReadOptions DBImpl::EffectiveReadOptions(const ReadOptions& options) const {
  ReadOptions effective = options;
  // A paranoid database verifies every block it reads.
  if (options_.paranoid_checks) effective.verify_checksums = true;
  return effective;
}

Status DBImpl::Get(const ReadOptions& options, const Slice& key,
                   std::string* value) {
  IoStats::Add(&io_stats_.gets);
  // Hashed once for every table this Get screens.
  uint64_t key_hash = 0;
  if (elastic_ != nullptr) {
    elastic_->layer()->Tick();  // logical time counts every Get
    key_hash = KeyHash64(key.data(), key.size());
  }

  MutexLock lock(&mutex_);
  const SequenceNumber last = versions_->LastSequence();
  const SequenceNumber sequence =
      options.snapshot != nullptr ? SnapshotSequence(options.snapshot) : last;
  // The tables of the current version hold no entry above `last`, so a
  // read at it may ask them at the largest sequence instead: same answer,
  // and a miss then proves the key absent from the whole table (the
  // false-positive memo remembers that).
  const SequenceNumber table_sequence =
      sequence >= last ? kMaxSequenceNumber : sequence;

  // Pin what we read so the lookup can run unlocked.
  MemTable* mem = mem_;
  MemTable* imm = imm_;
  Version* current = versions_->current();
  mem->Ref();
  if (imm != nullptr) imm->Ref();
  current->Ref();

  Status s;
  bool searched_tables = false;
  Version::GetStats stats;
  {
    mutex_.Unlock();
    LookupKey lkey(key, sequence);
    if (mem->Get(lkey, value, &s)) {
      // Found in the memtable (a value or a deletion).
    } else if (imm != nullptr && imm->Get(lkey, value, &s)) {
      // Found in the memtable being flushed.
    } else {
      lkey.SetSequence(table_sequence);
      s = current->Get(EffectiveReadOptions(options), lkey, value, &stats,
                       key_hash, &io_stats_);
      searched_tables = true;
    }
    mutex_.Lock();
  }

  if (searched_tables && current->UpdateStats(stats)) {
    MaybeScheduleCompaction();
  } else if (searched_tables && NoteTableRead()) {
    MaybeScheduleCompaction();
  } else if (hotness_.CheckpointDue()) {
    MaybeScheduleCompaction();
  }
  mem->Unref();
  if (imm != nullptr) imm->Unref();
  current->Unref();
  return s;
}

Iterator* DBImpl::NewIterator(const ReadOptions& options) {
  SequenceNumber latest;
  uint32_t seed;
  Iterator* internal =
      NewInternalIterator(EffectiveReadOptions(options), &latest, &seed);
  const SequenceNumber sequence =
      options.snapshot != nullptr ? SnapshotSequence(options.snapshot) : latest;
  return NewDBIterator(this, user_comparator(), internal, sequence, seed);
}

void DBImpl::RecordReadSample(Slice key) {
  MutexLock lock(&mutex_);
  if (versions_->current()->RecordReadSample(key)) {
    MaybeScheduleCompaction();
  }
}

const Snapshot* DBImpl::GetSnapshot() {
  MutexLock lock(&mutex_);
  return snapshots_.New(versions_->LastSequence());
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) {
  MutexLock lock(&mutex_);
  snapshots_.Delete(static_cast<const SnapshotImpl*>(snapshot));
}

// ---------------------------------------------------------------------------
// Writes

Status DBImpl::Put(const WriteOptions& options, const Slice& key,
                   const Slice& value) {
  return DB::Put(options, key, value);
}

Status DBImpl::Delete(const WriteOptions& options, const Slice& key) {
  return DB::Delete(options, key);
}

Status DBImpl::Write(const WriteOptions& options, WriteBatch* updates) {
  Writer self(&mutex_);
  self.batch = updates;
  self.sync = options.sync;

  MutexLock lock(&mutex_);
  writers_.push_back(&self);
  while (!self.done && &self != writers_.front()) {
    self.cv.Wait();
  }
  if (self.done) return self.status;  // a leader wrote our batch

  // We lead: write our batch and those queued behind it as one record.
  Status status = MakeRoomForWrite(updates == nullptr);
  uint64_t last_sequence = versions_->LastSequence();
  Writer* last_writer = &self;
  if (status.ok() && updates != nullptr) {
    WriteBatch* group = BuildBatchGroup(&last_writer);
    WriteBatchInternal::SetSequence(group, last_sequence + 1);
    last_sequence += WriteBatchInternal::Count(group);

    // Other writers wait behind us in the queue, so the log and mem_ are
    // ours until we are done; release the mutex for the I/O.
    if (options.sync) status = SyncPreviousLog();
    log::Writer* log = log_;
    WritableFile* logfile = logfile_;
    MemTable* mem = mem_;
    mutex_.Unlock();
    if (status.ok())
      status = log->AddRecord(WriteBatchInternal::Contents(group));
    if (status.ok() && options.sync) status = logfile->Sync();
    const bool log_failed = !status.ok();
    if (status.ok()) status = WriteBatchInternal::InsertInto(group, mem);
    mutex_.Lock();

    if (log_failed) {
      // The log may now hold a partial record, or unsynced data that a
      // crash would lose: accept no more writes.
      RecordBackgroundError(status);
    }
    if (group == tmp_batch_) tmp_batch_->Clear();
    versions_->SetLastSequence(last_sequence);
    level0_cleanup_.OnWrite();
  }

  // Hand the result to every writer of the group.
  while (true) {
    Writer* w = writers_.front();
    writers_.pop_front();
    if (w != &self) {
      w->status = status;
      w->done = true;
      w->cv.Signal();
    }
    if (w == last_writer) break;
  }
  if (!writers_.empty()) writers_.front()->cv.Signal();  // next leader
  return status;
}

WriteBatch* DBImpl::BuildBatchGroup(Writer** last_writer) {
  mutex_.AssertHeld();
  assert(!writers_.empty());
  Writer* first = writers_.front();
  assert(first->batch != nullptr);

  size_t size = WriteBatchInternal::ByteSize(first->batch);
  const size_t max_size =
      size <= kSmallBatchBytes ? size + kSmallBatchBytes : kMaxGroupBytes;

  WriteBatch* result = first->batch;
  *last_writer = first;
  for (auto it = writers_.begin() + 1; it != writers_.end(); ++it) {
    Writer* w = *it;
    // A sync write must not ride in a group whose leader will not sync.
    if (w->sync && !first->sync) break;
    // A null batch asks for a memtable switch, which only a leader does.
    if (w->batch == nullptr) break;
    size += WriteBatchInternal::ByteSize(w->batch);
    if (size > max_size) break;
    if (result == first->batch) {
      // Do not modify the caller's batch: gather into tmp_batch_.
      result = tmp_batch_;
      assert(WriteBatchInternal::Count(result) == 0);
      WriteBatchInternal::Append(result, first->batch);
    }
    WriteBatchInternal::Append(result, w->batch);
    *last_writer = w;
  }
  return result;
}

Status DBImpl::SyncPreviousLog() {
  mutex_.AssertHeld();
  if (prev_logfile_ == nullptr) return Status::OK();
  Status s = prev_logfile_->Sync();
  if (s.ok()) ReleasePreviousLog();
  return s;
}

void DBImpl::ReleasePreviousLog() {
  mutex_.AssertHeld();
  if (prev_logfile_ == nullptr) return;
  Status closed = prev_logfile_->Close();
  if (!closed.ok()) {
    // Its memtable holds every write of that log and is flushed to a table
    // (or the log was synced), so nothing is lost by carrying on.
    Log(options_.info_log, "Closing log #%" PRIu64 " failed: %s",
        prev_logfile_number_, closed.ToString().c_str());
  }
  delete prev_logfile_;
  prev_logfile_ = nullptr;
}

Status DBImpl::SwitchMemTable() {
  mutex_.AssertHeld();
  assert(versions_->PrevLogNumber() == 0);
  const uint64_t number = versions_->NewFileNumber();
  WritableFile* file = nullptr;
  Status s = env_->NewWritableFile(LogFileName(dbname_, number), &file);
  if (!s.ok()) {
    versions_->ReuseFileNumber(number);
    return s;
  }

  // The old log is not synced here (an fsync per switch would tax every
  // plain write). It stays open until its memtable is flushed; a synced
  // write arriving before that syncs it first (SyncPreviousLog), so a later
  // synced write never survives a crash that loses an earlier write. Any
  // older one is obsolete: its memtable has been flushed.
  delete log_;
  ReleasePreviousLog();
  prev_logfile_ = logfile_;
  prev_logfile_number_ = logfile_number_;
  logfile_ = file;
  logfile_number_ = number;
  log_ = new log::Writer(file);

  imm_ = mem_;
  has_imm_.store(true, std::memory_order_release);
  mem_ = new MemTable(internal_comparator_);
  mem_->Ref();
  MaybeScheduleCompaction();
  return Status::OK();
}

Status DBImpl::MakeRoomForWrite(bool force) {
  mutex_.AssertHeld();
  assert(!writers_.empty());
  bool may_delay = !force;
  while (true) {
    if (!bg_error_.ok()) return bg_error_;

    const int l0_files = versions_->NumLevelFiles(0);
    if (may_delay && l0_files >= config::kL0_SlowdownWritesTrigger) {
      // Nearly at the hard limit: give the compaction 1 ms of each write
      // now rather than stalling one write for a long time later.
      mutex_.Unlock();
      env_->SleepForMicroseconds(1000);
      may_delay = false;  // once per write
      mutex_.Lock();
    } else if (!force &&
               mem_->ApproximateMemoryUsage() <= options_.write_buffer_size) {
      return Status::OK();
    } else if (imm_ != nullptr) {
      Log(options_.info_log, "Current memtable full; waiting...\n");
      background_work_finished_signal_.Wait();
    } else if (l0_files >= config::kL0_StopWritesTrigger) {
      Log(options_.info_log, "Too many L0 files; waiting...\n");
      background_work_finished_signal_.Wait();
    } else {
      Status s = SwitchMemTable();
      if (!s.ok()) return s;
      force = false;  // the new memtable is empty: room enough
    }
  }
}

// ---------------------------------------------------------------------------
// Manual compaction

void DBImpl::CompactRange(const Slice* begin, const Slice* end) {
  int deepest = 1;
  {
    MutexLock lock(&mutex_);
    Version* base = versions_->current();
    for (int level = 1; level < config::kNumLevels; level++) {
      if (base->OverlapInLevel(level, begin, end)) deepest = level;
    }
  }
  TEST_CompactMemTable();  // errors surface through bg_error_ below anyway
  for (int level = 0; level < deepest; level++) {
    TEST_CompactRange(level, begin, end);
  }
}

void DBImpl::TEST_CompactRange(int level, const Slice* begin,
                               const Slice* end) {
  if (level < 0 || level + 1 >= config::kNumLevels) return;  // no level below

  InternalKey begin_key, end_key;
  ManualCompaction manual;
  manual.level = level;
  if (begin != nullptr) {
    begin_key = InternalKey(*begin, kMaxSequenceNumber, kValueTypeForSeek);
    manual.begin = &begin_key;
  }
  if (end != nullptr) {
    end_key = InternalKey(*end, 0, static_cast<ValueType>(0));
    manual.end = &end_key;
  }

  MutexLock lock(&mutex_);
  while (!manual.done && !shutting_down_.load(std::memory_order_acquire) &&
         bg_error_.ok()) {
    if (manual_compaction_ == nullptr) {
      manual_compaction_ = &manual;
      MaybeScheduleCompaction();
    } else {
      background_work_finished_signal_.Wait();
    }
  }
  // `manual` lives on this stack: make sure no background call still sees
  // it (the loop may have ended on an error or shutdown).
  while (background_compaction_scheduled_) {
    background_work_finished_signal_.Wait();
  }
  if (manual_compaction_ == &manual) manual_compaction_ = nullptr;
}

Status DBImpl::TEST_CompactMemTable() {
  // A null batch forces a switch to a new memtable.
  Status s = Write(WriteOptions(), nullptr);
  if (!s.ok()) return s;
  MutexLock lock(&mutex_);
  while (imm_ != nullptr && bg_error_.ok()) {
    background_work_finished_signal_.Wait();
  }
  if (imm_ != nullptr) s = bg_error_;
  return s;
}

// ---------------------------------------------------------------------------
// Properties and sizes

const DBImpl::PropertyEntry DBImpl::kProperties[] = {
    {"num-files-at-level", true, &DBImpl::NumFilesAtLevelProperty},
    {"stats", false, &DBImpl::StatsProperty},
    {"sstables", false, &DBImpl::SSTablesProperty},
    {"approximate-memory-usage", false, &DBImpl::MemoryUsageProperty},
    {"io-stats", false, &DBImpl::IoStatsProperty},
    {"elasticbf", false, &DBImpl::ElasticProperty},
};

bool DBImpl::GetProperty(const Slice& property, std::string* value) {
  value->clear();
  Slice name = property;
  const Slice prefix("leveldb.");
  if (!name.starts_with(prefix)) return false;
  name.remove_prefix(prefix.size());

  MutexLock lock(&mutex_);
  for (const PropertyEntry& entry : kProperties) {
    const Slice entry_name(entry.name);
    const bool matches =
        entry.takes_suffix ? name.starts_with(entry_name) : name == entry_name;
    if (!matches) continue;
    Slice suffix = name;
    suffix.remove_prefix(entry_name.size());
    return (this->*entry.handler)(suffix, value);
  }
  return false;
}

bool DBImpl::NumFilesAtLevelProperty(const Slice& suffix, std::string* value) {
  Slice digits = suffix;
  uint64_t level = 0;
  if (!ConsumeDecimal(&digits, &level) || !digits.empty() ||
      level >= static_cast<uint64_t>(config::kNumLevels)) {
    return false;
  }
  AppendDecimal(value, static_cast<uint64_t>(
                           versions_->NumLevelFiles(static_cast<int>(level))));
  return true;
}

bool DBImpl::StatsProperty(const Slice& /*suffix*/, std::string* value) {
  char line[200];
  std::snprintf(line, sizeof(line),
                "                               Compactions\n"
                "Level  Files Size(MB) Time(sec) Read(MB) Write(MB)\n"
                "--------------------------------------------------\n");
  value->append(line);
  constexpr double kMiB = 1048576.0;
  for (int level = 0; level < config::kNumLevels; level++) {
    const int files = versions_->NumLevelFiles(level);
    const CompactionStats& st = stats_[level];
    if (st.micros <= 0 && files == 0) continue;
    std::snprintf(line, sizeof(line), "%3d %8d %8.0f %9.0f %8.0f %9.0f\n",
                  level, files, versions_->NumLevelBytes(level) / kMiB,
                  st.micros / 1e6, st.bytes_read / kMiB,
                  st.bytes_written / kMiB);
    value->append(line);
  }
  return true;
}

bool DBImpl::SSTablesProperty(const Slice& /*suffix*/, std::string* value) {
  *value = versions_->current()->DebugString();
  return true;
}

bool DBImpl::MemoryUsageProperty(const Slice& /*suffix*/, std::string* value) {
  size_t total = options_.block_cache->TotalCharge();
  if (mem_ != nullptr) total += mem_->ApproximateMemoryUsage();
  if (imm_ != nullptr) total += imm_->ApproximateMemoryUsage();
  uint64_t units = 0;
  if (elastic_ != nullptr) {
    uint64_t budget;
    elastic_->GetMemory(&units, &budget);  // bytes of installed units
  }
  AppendDecimal(value, static_cast<uint64_t>(total) + units);
  return true;
}

bool DBImpl::ElasticProperty(const Slice& /*suffix*/, std::string* value) {
  if (elastic_ == nullptr) {
    *value = "enabled: no\n";
    return true;
  }
  *value = "enabled: yes\n";
  value->append(elastic_->StatsString());
  return true;
}

bool DBImpl::IoStatsProperty(const Slice& /*suffix*/, std::string* value) {
  *value = io_stats_.ToString();
  return true;
}

void ResetIoStats(DB* db) {
  auto* impl = dynamic_cast<DBImpl*>(db);
  if (impl != nullptr) impl->io_stats_.Reset();
}

void DBImpl::GetApproximateSizes(const Range* range, int n, uint64_t* sizes) {
  VersionSet* vset;
  Version* v;
  {
    MutexLock lock(&mutex_);
    vset = versions_;
    v = vset->current();
    v->Ref();
  }
  // Offsets come from table indexes: no need to hold the mutex.
  for (int i = 0; i < n; i++) {
    const InternalKey start(range[i].start, kMaxSequenceNumber,
                            kValueTypeForSeek);
    const InternalKey limit(range[i].limit, kMaxSequenceNumber,
                            kValueTypeForSeek);
    const uint64_t from = vset->ApproximateOffsetOf(v, start);
    const uint64_t to = vset->ApproximateOffsetOf(v, limit);
    sizes[i] = to >= from ? to - from : 0;
  }
  MutexLock lock(&mutex_);
  v->Unref();
}

// ---------------------------------------------------------------------------
// DB entry points

Snapshot::~Snapshot() = default;

DB::~DB() = default;

Status DB::Put(const WriteOptions& options, const Slice& key,
               const Slice& value) {
  WriteBatch batch;
  batch.Put(key, value);
  return Write(options, &batch);
}

Status DB::Delete(const WriteOptions& options, const Slice& key) {
  WriteBatch batch;
  batch.Delete(key);
  return Write(options, &batch);
}

namespace {

Status CheckOpenArguments(const Options& options, const std::string& dbname) {
  if (dbname.empty()) {
    return Status::InvalidArgument("database name must not be empty");
  }
  if (options.env == nullptr) {
    return Status::InvalidArgument(dbname, "Options::env must not be null");
  }
  if (options.comparator == nullptr) {
    return Status::InvalidArgument(dbname,
                                   "Options::comparator must not be null");
  }
  if (options.block_restart_interval < 1) {
    return Status::InvalidArgument(
        dbname, "Options::block_restart_interval must be at least 1");
  }
  // Checked before anything touches the directory.
  const ElasticFilterPolicy* elastic =
      AsElasticPolicy(options.filter_policy, nullptr);
  if (elastic != nullptr) {
    Status s = ValidateElasticFilterOptions(elastic->options());
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace

Status DB::Open(const Options& options, const std::string& dbname, DB** dbptr) {
  *dbptr = nullptr;
  Status s = CheckOpenArguments(options, dbname);
  if (!s.ok()) return s;
  // Decided before anything touches the directory, like the checks above.
  ElasticEnvDecision elastic_switch;
  s = DecideElasticEnvSwitch(std::getenv(kElasticEnvVariable),
                             options.filter_policy, &elastic_switch);
  if (!s.ok()) return s;
  Options effective = options;
  if (elastic_switch.policy != nullptr) {
    effective.filter_policy = elastic_switch.policy.get();
  }

  DBImpl* impl =
      new DBImpl(effective, dbname, std::move(elastic_switch.policy));
  if (!elastic_switch.log_message.empty()) {
    Log(impl->options_.info_log, "%s", elastic_switch.log_message.c_str());
  }
  impl->mutex_.Lock();
  VersionEdit edit;
  bool save_manifest = false;
  s = impl->Recover(&edit, &save_manifest);
  if (s.ok() && impl->mem_ == nullptr) {
    // No log was kept for reuse: start a fresh one.
    const uint64_t number = impl->versions_->NewFileNumber();
    WritableFile* file = nullptr;
    s = options.env->NewWritableFile(LogFileName(dbname, number), &file);
    if (s.ok()) {
      edit.SetLogNumber(number);
      impl->logfile_ = file;
      impl->logfile_number_ = number;
      impl->log_ = new log::Writer(file);
      impl->mem_ = new MemTable(impl->internal_comparator_);
      impl->mem_->Ref();
    }
  }
  if (s.ok() && save_manifest) {
    // Recovered logs are now in tables (or the reused log): older logs are
    // not needed any more.
    edit.SetPrevLogNumber(0);
    edit.SetLogNumber(impl->logfile_number_);
    s = impl->versions_->LogAndApply(&edit, &impl->mutex_);
  }
  if (s.ok()) {
    impl->open_complete_ = true;
    impl->hotness_.Start();
    impl->RemoveObsoleteFiles();
    impl->MaybeScheduleCompaction();
  }
  assert(!s.ok() || impl->mem_ != nullptr);
  impl->mutex_.Unlock();

  if (s.ok()) {
    *dbptr = impl;
  } else {
    delete impl;
  }
  return s;
}

Status DestroyDB(const std::string& dbname, const Options& options) {
  Env* env = options.env;
  if (env == nullptr) {
    return Status::InvalidArgument(dbname, "Options::env must not be null");
  }
  std::vector<std::string> children;
  if (!env->GetChildren(dbname, &children).ok()) {
    return Status::OK();  // nothing there to destroy
  }

  const std::string lock_name = LockFileName(dbname);
  FileLock* lock = nullptr;
  Status result = env->LockFile(lock_name, &lock);
  if (!result.ok()) return result;  // e.g. the DB is open

  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type) || type == kDBLockFile) {
      continue;  // not ours, or the lock we hold
    }
    Status del = env->RemoveFile(dbname + "/" + child);
    if (result.ok() && !del.ok()) result = del;
  }
  env->UnlockFile(lock);
  env->RemoveFile(lock_name);
  env->RemoveDir(dbname);  // fails harmlessly if foreign files remain
  return result;
}

}  // namespace leveldb

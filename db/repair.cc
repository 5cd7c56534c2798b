// RepairDB: rebuilds a usable database from whatever files survive.
//
// Every log is turned into a table (corrupt records are skipped), every
// table is scanned for its key range and largest sequence number (entries
// that cannot be read are left out, unreadable tables are moved to
// dbname/lost/), and a fresh MANIFEST listing all tables at level 0 is
// written. Old MANIFESTs go to lost/ as well. Later compactions sort the
// level-0 pile out again.
#include <cinttypes>
#include <memory>
#include <string>
#include <vector>

#include "db/builder.h"
#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/memtable.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "leveldb/comparator.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/table_builder.h"
#include "table/table_builder_access.h"
#include "util/logging.h"

namespace leveldb {

namespace {

// Open tables the repairer keeps cached; it reads each table at most twice.
constexpr int kRepairTableCacheEntries = 10;

class Repairer {
 public:
  Repairer(const std::string& dbname, const Options& options)
      : dbname_(dbname),
        env_(options.env),
        icmp_(options.comparator),
        ipolicy_(options.filter_policy),
        options_(SanitizeOptions(dbname, &icmp_, &ipolicy_, options)),
        owns_info_log_(options_.info_log != options.info_log),
        owns_cache_(options_.block_cache != options.block_cache),
        table_cache_(
            new TableCache(dbname_, options_, kRepairTableCacheEntries)) {}

  Repairer(const Repairer&) = delete;
  Repairer& operator=(const Repairer&) = delete;

  ~Repairer() {
    delete table_cache_;
    if (owns_info_log_) delete options_.info_log;
    if (owns_cache_) delete options_.block_cache;
  }

  Status Run();

 private:
  struct TableInfo {
    FileMetaData meta;
    SequenceNumber max_sequence = 0;
  };

  Status FindFiles();
  void ConvertLogsToTables();
  Status ConvertLogToTable(uint64_t log_number);
  void ScanTables();
  void ScanTable(uint64_t number);
  // Copies the readable entries of a damaged table into a new one.
  void SalvageTable(const std::string& src, uint64_t number);
  Status WriteDescriptor();
  void ArchiveFile(const std::string& fname);

  // Reads every entry of table `number`, extending t's key range and max
  // sequence; calls sink (if not null) with each well-formed entry.
  // Returns the iterator's final status and the count of good entries.
  Status ReadEntries(uint64_t number, uint64_t size, TableInfo* t,
                     TableBuilder* sink, int* good_entries);

  const std::string dbname_;
  Env* const env_;
  const InternalKeyComparator icmp_;
  const InternalFilterPolicy ipolicy_;
  const Options options_;
  const bool owns_info_log_;
  const bool owns_cache_;
  TableCache* const table_cache_;

  std::vector<std::string> manifests_;
  std::vector<uint64_t> table_numbers_;
  std::vector<uint64_t> logs_;
  std::vector<TableInfo> tables_;
  uint64_t next_file_number_ = 1;
};

Status Repairer::Run() {
  Status status = FindFiles();
  if (!status.ok()) return status;

  // Keep an open DB (or another repair) out while files move around.
  FileLock* lock = nullptr;
  status = env_->LockFile(LockFileName(dbname_), &lock);
  if (!status.ok()) return status;

  ConvertLogsToTables();
  ScanTables();
  status = WriteDescriptor();
  env_->UnlockFile(lock);

  if (status.ok()) {
    uint64_t bytes = 0;
    for (const TableInfo& t : tables_) bytes += t.meta.file_size;
    Log(options_.info_log,
        "**** Repaired leveldb %s; recovered %d files; %" PRIu64
        " bytes. Some data may have been lost. ****",
        dbname_.c_str(), static_cast<int>(tables_.size()), bytes);
  }
  return status;
}

Status Repairer::FindFiles() {
  std::vector<std::string> children;
  Status status = env_->GetChildren(dbname_, &children);
  if (!status.ok()) return status;

  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    if (type == kDescriptorFile) {
      manifests_.push_back(child);
      continue;
    }
    if (number + 1 > next_file_number_) next_file_number_ = number + 1;
    if (type == kLogFile) {
      logs_.push_back(number);
    } else if (type == kTableFile) {
      table_numbers_.push_back(number);
    }
    // Lock, CURRENT, info logs and temp files need nothing.
  }
  if (manifests_.empty() && logs_.empty() && table_numbers_.empty()) {
    return Status::IOError(dbname_, "repair found no files");
  }
  return Status::OK();
}

void Repairer::ConvertLogsToTables() {
  for (uint64_t number : logs_) {
    const std::string fname = LogFileName(dbname_, number);
    Status s = ConvertLogToTable(number);
    if (!s.ok()) {
      Log(options_.info_log, "Log #%" PRIu64 ": ignoring conversion error: %s",
          number, s.ToString().c_str());
    }
    // Whatever could be read is in a table now.
    ArchiveFile(fname);
  }
}

namespace {

// Logs dropped log data; repair always carries on.
class RepairReporter : public log::Reader::Reporter {
 public:
  RepairReporter(Logger* info_log, uint64_t log_number)
      : info_log_(info_log), log_number_(log_number) {}

  void Corruption(size_t bytes, const Status& s) override {
    Log(info_log_, "Log #%" PRIu64 ": dropping %d bytes; %s", log_number_,
        static_cast<int>(bytes), s.ToString().c_str());
  }

 private:
  Logger* const info_log_;
  const uint64_t log_number_;
};

}  // namespace

Status Repairer::ConvertLogToTable(uint64_t log_number) {
  const std::string fname = LogFileName(dbname_, log_number);
  SequentialFile* file = nullptr;
  Status status = env_->NewSequentialFile(fname, &file);
  if (!status.ok()) return status;

  // Checksums on, so a damaged record is dropped whole instead of being
  // replayed with garbage in it.
  RepairReporter reporter(options_.info_log, log_number);
  log::Reader reader(file, &reporter, true /*checksum*/, 0 /*offset*/);

  MemTable* mem = new MemTable(icmp_);
  mem->Ref();
  std::string scratch;
  Slice record;
  WriteBatch batch;
  int batches = 0;
  while (reader.ReadRecord(&record, &scratch)) {
    if (record.size() < WriteBatchInternal::kHeaderSize) {
      reporter.Corruption(record.size(),
                          Status::Corruption("log record too small"));
      continue;
    }
    WriteBatchInternal::SetContents(&batch, record);
    Status s = WriteBatchInternal::InsertInto(&batch, mem);
    if (s.ok()) {
      batches++;
    } else {
      Log(options_.info_log, "Log #%" PRIu64 ": ignoring %s", log_number,
          s.ToString().c_str());
    }
  }
  delete file;

  FileMetaData meta;
  meta.number = next_file_number_++;
  Iterator* iter = mem->NewIterator();
  status = BuildTable(dbname_, env_, options_, table_cache_, iter, &meta);
  delete iter;
  mem->Unref();
  if (status.ok() && meta.file_size > 0) {
    table_numbers_.push_back(meta.number);
  }
  Log(options_.info_log,
      "Log #%" PRIu64 ": %d batches => table #%" PRIu64 " (%" PRIu64
      " bytes): %s",
      log_number, batches, meta.number, meta.file_size,
      status.ToString().c_str());
  return status;
}

void Repairer::ScanTables() {
  for (uint64_t number : table_numbers_) ScanTable(number);
}

Status Repairer::ReadEntries(uint64_t number, uint64_t size, TableInfo* t,
                             TableBuilder* sink, int* good_entries) {
  *good_entries = 0;
  // Verified reads make a damaged block fail (and be skipped) instead of
  // yielding garbage entries.
  ReadOptions read_options;
  read_options.verify_checksums = true;
  read_options.fill_cache = false;
  Iterator* iter = table_cache_->NewIterator(read_options, number, size);
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    const Slice key = iter->key();
    ParsedInternalKey parsed;
    if (!ParseInternalKey(key, &parsed)) {
      Log(options_.info_log, "Table #%" PRIu64 ": unparsable key %s", number,
          EscapedString(key).c_str());
      continue;
    }
    if (*good_entries == 0) t->meta.smallest.DecodeFrom(key);
    t->meta.largest.DecodeFrom(key);
    if (parsed.sequence > t->max_sequence) t->max_sequence = parsed.sequence;
    if (sink != nullptr) sink->Add(key, iter->value());
    ++*good_entries;
  }
  Status status = iter->status();
  delete iter;
  return status;
}

void Repairer::ScanTable(uint64_t number) {
  // Older databases name tables *.sst.
  std::string fname = TableFileName(dbname_, number);
  uint64_t size = 0;
  Status status = env_->GetFileSize(fname, &size);
  if (!status.ok()) {
    fname = SSTTableFileName(dbname_, number);
    if (env_->GetFileSize(fname, &size).ok()) status = Status::OK();
  }
  if (!status.ok()) {
    ArchiveFile(TableFileName(dbname_, number));
    ArchiveFile(SSTTableFileName(dbname_, number));
    Log(options_.info_log, "Table #%" PRIu64 ": dropped: %s", number,
        status.ToString().c_str());
    return;
  }

  TableInfo t;
  t.meta.number = number;
  t.meta.file_size = size;
  int entries = 0;
  status = ReadEntries(number, size, &t, nullptr, &entries);
  Log(options_.info_log, "Table #%" PRIu64 ": %d entries %s", number, entries,
      status.ToString().c_str());

  if (status.ok() && entries > 0) {
    tables_.push_back(t);
  } else if (status.ok()) {
    // Nothing in it to keep.
    ArchiveFile(fname);
  } else {
    SalvageTable(fname, number);
  }
}

void Repairer::SalvageTable(const std::string& src, uint64_t number) {
  TableInfo t;
  t.meta.number = next_file_number_++;
  const std::string copy = TableFileName(dbname_, t.meta.number);
  WritableFile* file = nullptr;
  Status s = env_->NewWritableFile(copy, &file);
  int entries = 0;
  if (s.ok()) {
    std::unique_ptr<TableBuilder> builder =
        ElasticTableBuilderAccess::NewBuilder(
            options_, table_cache_->filter_setup(), file);
    uint64_t size = 0;
    env_->GetFileSize(src, &size);
    // The read error is expected here; keep what came before and after it.
    ReadEntries(number, size, &t, builder.get(), &entries);
    s = builder->Finish();
    if (s.ok()) {
      t.meta.file_size = builder->FileSize();
      s = file->Sync();
    }
    if (s.ok()) s = file->Close();
    delete file;
  }
  table_cache_->Evict(number);
  ArchiveFile(src);

  if (s.ok() && entries > 0) {
    tables_.push_back(t);
  } else {
    env_->RemoveFile(copy);
  }
  Log(options_.info_log,
      "Table #%" PRIu64 ": %d entries salvaged into #%" PRIu64 ": %s", number,
      entries, t.meta.number, s.ToString().c_str());
}

Status Repairer::WriteDescriptor() {
  const std::string tmp = TempFileName(dbname_, 1);
  WritableFile* file = nullptr;
  Status status = env_->NewWritableFile(tmp, &file);
  if (!status.ok()) return status;

  SequenceNumber max_sequence = 0;
  for (const TableInfo& t : tables_) {
    if (t.max_sequence > max_sequence) max_sequence = t.max_sequence;
  }

  VersionEdit edit;
  edit.SetComparatorName(icmp_.user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(next_file_number_);
  edit.SetLastSequence(max_sequence);
  for (const TableInfo& t : tables_) {
    // Level 0 accepts overlapping files; compactions sort them out later.
    edit.AddFile(0, t.meta.number, t.meta.file_size, t.meta.smallest,
                 t.meta.largest);
  }

  {
    log::Writer writer(file);
    std::string record;
    edit.EncodeTo(&record);
    status = writer.AddRecord(record);
  }
  if (status.ok()) status = file->Sync();
  if (status.ok()) status = file->Close();
  delete file;

  if (status.ok()) {
    // The old MANIFESTs are superseded; keep them for forensics.
    for (const std::string& manifest : manifests_) {
      ArchiveFile(dbname_ + "/" + manifest);
    }
    status = env_->RenameFile(tmp, DescriptorFileName(dbname_, 1));
  }
  if (status.ok()) {
    status = SetCurrentFile(env_, dbname_, 1);
  } else {
    env_->RemoveFile(tmp);
  }
  return status;
}

void Repairer::ArchiveFile(const std::string& fname) {
  if (!env_->FileExists(fname)) return;
  // dir/name -> dir/lost/name
  const size_t slash = fname.rfind('/');
  const std::string dir =
      (slash == std::string::npos) ? std::string(".") : fname.substr(0, slash);
  const std::string base =
      (slash == std::string::npos) ? fname : fname.substr(slash + 1);
  const std::string lost_dir = dir + "/lost";
  env_->CreateDir(lost_dir);  // may already exist
  Status s = env_->RenameFile(fname, lost_dir + "/" + base);
  Log(options_.info_log, "Archiving %s: %s", fname.c_str(),
      s.ToString().c_str());
}

}  // namespace

Status RepairDB(const std::string& dbname, const Options& options) {
  if (options.env == nullptr || options.comparator == nullptr) {
    return Status::InvalidArgument(
        dbname, "Options::env and Options::comparator must not be null");
  }
  // Do not create a directory (with a LOG) for a database that is not there.
  std::vector<std::string> children;
  Status s = options.env->GetChildren(dbname, &children);
  if (!s.ok()) return s;
  Repairer repairer(dbname, options);
  return repairer.Run();
}

}  // namespace leveldb

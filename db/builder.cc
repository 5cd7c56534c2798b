#include "db/builder.h"

#include <memory>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "table/table_builder_access.h"

namespace leveldb {

namespace {

// Streams every entry of iter (already positioned on its first entry) into
// a new table at fname, filtered as `filter` says, and records the key
// range and size in *meta.
Status WriteTableFile(const std::string& fname, Env* env,
                      const Options& options, const TableFilterSetup& filter,
                      Iterator* iter, FileMetaData* meta) {
  WritableFile* raw_file = nullptr;
  Status s = env->NewWritableFile(fname, &raw_file);
  if (!s.ok()) {
    return s;
  }
  std::unique_ptr<WritableFile> file(raw_file);

  std::unique_ptr<TableBuilder> builder =
      ElasticTableBuilderAccess::NewBuilder(options, filter, file.get());
  meta->smallest.DecodeFrom(iter->key());
  std::string last_key;
  for (; iter->Valid(); iter->Next()) {
    const Slice key = iter->key();
    last_key.assign(key.data(), key.size());
    builder->Add(key, iter->value());
  }
  meta->largest.DecodeFrom(last_key);

  s = builder->Finish();
  if (s.ok()) {
    meta->file_size = builder->FileSize();
    s = file->Sync();
  }
  if (s.ok()) {
    s = file->Close();
  }
  return s;
}

// Opens the freshly written table through the cache, so a table that
// cannot be read is never installed.
Status VerifyTable(const ReadOptions& read_options, TableCache* table_cache,
                   const FileMetaData& meta) {
  std::unique_ptr<Iterator> check(
      table_cache->NewIterator(read_options, meta.number, meta.file_size));
  return check->status();
}

}  // namespace

Status BuildTable(const std::string& dbname, Env* env, const Options& options,
                  TableCache* table_cache, Iterator* iter, FileMetaData* meta) {
  meta->file_size = 0;
  iter->SeekToFirst();
  const std::string fname = TableFileName(dbname, meta->number);

  Status s;
  if (iter->Valid()) {
    s = WriteTableFile(fname, env, options, table_cache->filter_setup(), iter,
                       meta);
    if (s.ok()) {
      s = VerifyTable(ReadOptions(), table_cache, *meta);
    }
  }
  // An input error means the table may be missing entries.
  if (s.ok() && !iter->status().ok()) {
    s = iter->status();
  }

  if (!s.ok() || meta->file_size == 0) {
    env->RemoveFile(fname);
  }
  return s;
}

}  // namespace leveldb

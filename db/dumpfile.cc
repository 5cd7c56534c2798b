// Human-readable dumps of the three kinds of database file: write-ahead
// logs (one write batch per record), descriptors (one version edit per
// record) and tables (one internal key/value pair per entry).
#include "leveldb/dumpfile.h"

#include <cstdint>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "leveldb/write_batch.h"
#include "util/logging.h"

namespace leveldb {

namespace {

// Appends 'escaped' (quoted, non-printable bytes as \xNN) to *out.
void AppendQuoted(std::string* out, const Slice& bytes) {
  out->push_back('\'');
  AppendEscaped(out, bytes);
  out->push_back('\'');
}

void AppendHex(std::string* out, const Slice& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  for (size_t i = 0; i < bytes.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 0xf]);
  }
}

// Log damage is not fatal to a dump: it is shown in line with the records
// and the dump goes on with whatever can still be read.
class InlineReporter : public log::Reader::Reporter {
 public:
  explicit InlineReporter(WritableFile* dst) : dst_(dst) {}

  void Corruption(size_t bytes, const Status& status) override {
    std::string line = "*** corruption: ";
    AppendDecimal(&line, bytes);
    line += " bytes dropped: ";
    line += status.ToString();
    line += "\n";
    dst_->Append(line);
  }

 private:
  WritableFile* const dst_;
};

// Turns one log record into text (possibly several lines).
using RecordPrinter = void (*)(uint64_t offset, const Slice& record,
                               std::string* out);

// Prints every record of the log-format file fname.
Status DumpLogFormatFile(Env* env, const std::string& fname,
                         RecordPrinter print, WritableFile* dst) {
  SequentialFile* raw_file;
  Status s = env->NewSequentialFile(fname, &raw_file);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file(raw_file);

  InlineReporter reporter(dst);
  log::Reader reader(file.get(), &reporter, /*checksum=*/true,
                     /*initial_offset=*/0);
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    std::string text;
    print(reader.LastRecordOffset(), record, &text);
    s = dst->Append(text);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Writes the operations of a batch as indented lines.
class BatchPrinter : public WriteBatch::Handler {
 public:
  explicit BatchPrinter(std::string* out) : out_(out) {}

  void Put(const Slice& key, const Slice& value) override {
    *out_ += "  put ";
    AppendQuoted(out_, key);
    *out_ += " ";
    AppendQuoted(out_, value);
    *out_ += "\n";
  }

  void Delete(const Slice& key) override {
    *out_ += "  del ";
    AppendQuoted(out_, key);
    *out_ += "\n";
  }

 private:
  std::string* const out_;
};

void PrintBatchRecord(uint64_t offset, const Slice& record, std::string* out) {
  *out += "--- offset ";
  AppendDecimal(out, offset);
  if (record.size() < WriteBatchInternal::kHeaderSize) {
    *out += "; corrupt: record of ";
    AppendDecimal(out, record.size());
    *out += " bytes is shorter than a batch header\n";
    return;
  }
  WriteBatch batch;
  WriteBatchInternal::SetContents(&batch, record);
  *out += "; sequence ";
  AppendDecimal(out, WriteBatchInternal::Sequence(&batch));
  *out += "; count ";
  AppendDecimal(out, static_cast<uint32_t>(WriteBatchInternal::Count(&batch)));
  *out += "\n";
  BatchPrinter printer(out);
  Status s = batch.Iterate(&printer);
  if (!s.ok()) {
    *out += "  error: " + s.ToString() + "\n";
  }
}

void PrintEditRecord(uint64_t offset, const Slice& record, std::string* out) {
  *out += "--- offset ";
  AppendDecimal(out, offset);
  *out += "\n";
  VersionEdit edit;
  Status s = edit.DecodeFrom(record);
  if (s.ok()) {
    *out += edit.DebugString();
    if (out->empty() || out->back() != '\n') out->push_back('\n');
  } else {
    *out += "  error: " + s.ToString() + "\n";
  }
}

// One line per table entry: 'user key' @ sequence : kind [=> 'value'].
void PrintTableEntry(const Slice& key, const Slice& value, std::string* out) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(key, &parsed)) {
    *out += "badkey ";
    AppendHex(out, key);
    *out += " => ";
    AppendQuoted(out, value);
    *out += "\n";
    return;
  }
  AppendQuoted(out, parsed.user_key);
  *out += " @ ";
  AppendDecimal(out, parsed.sequence);
  if (parsed.type == kTypeDeletion) {
    *out += " : del\n";
    return;
  }
  *out += " : put => ";
  AppendQuoted(out, value);
  *out += "\n";
}

Status DumpTableFile(Env* env, const std::string& fname, WritableFile* dst) {
  uint64_t file_size;
  Status s = env->GetFileSize(fname, &file_size);
  if (!s.ok()) return s;
  RandomAccessFile* raw_file;
  s = env->NewRandomAccessFile(fname, &raw_file);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> file(raw_file);

  Options options;
  options.env = env;
  Table* raw_table;
  s = Table::Open(options, file.get(), file_size, &raw_table);
  if (!s.ok()) return s;
  std::unique_ptr<Table> table(raw_table);

  ReadOptions read_options;
  read_options.fill_cache = false;
  read_options.verify_checksums = true;
  std::unique_ptr<Iterator> iter(table->NewIterator(read_options));
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    std::string line;
    PrintTableEntry(iter->key(), iter->value(), &line);
    s = dst->Append(line);
    if (!s.ok()) return s;
  }
  s = iter->status();
  if (!s.ok()) {
    dst->Append("*** iterator error: " + s.ToString() + "\n");
  }
  return s;
}

}  // namespace

Status DumpFile(Env* env, const std::string& fname, WritableFile* dst) {
  const size_t slash = fname.rfind('/');
  const std::string base =
      slash == std::string::npos ? fname : fname.substr(slash + 1);
  uint64_t number;
  FileType type;
  if (!ParseFileName(base, &number, &type)) {
    return Status::InvalidArgument(fname, "unknown file type");
  }
  switch (type) {
    case kLogFile:
      return DumpLogFormatFile(env, fname, PrintBatchRecord, dst);
    case kDescriptorFile:
      return DumpLogFormatFile(env, fname, PrintEditRecord, dst);
    case kTableFile:
      return DumpTableFile(env, fname, dst);
    default:
      return Status::InvalidArgument(
          fname, "unknown file type (not a log, table or descriptor file)");
  }
}

}  // namespace leveldb

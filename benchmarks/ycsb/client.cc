#include "client.h"

#include <chrono>

#include "leveldb/iterator.h"

namespace ycsb {

uint64_t NowNanos() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

Client::Client(Workload* workload, Database* database, int phase, int thread)
    : workload_(workload),
      spec_(workload->spec()),
      database_(database),
      rng_(workload->ThreadSeed(phase, thread)),
      key_chooser_(workload->NewKeyChooser()),
      scan_length_chooser_(workload->NewScanLengthChooser()),
      field_chooser_(0, static_cast<uint64_t>(spec_.field_count - 1)) {
  operation_chooser_.Add(kChooseRead, spec_.read_proportion);
  operation_chooser_.Add(kChooseUpdate, spec_.update_proportion);
  operation_chooser_.Add(kChooseInsert, spec_.insert_proportion);
  operation_chooser_.Add(kChooseScan, spec_.scan_proportion);
  operation_chooser_.Add(kChooseReadModifyWrite,
                         spec_.read_modify_write_proportion);
}

uint64_t Client::NextKeyNumber() {
  // Draws beyond the newest inserted record are retried, as in YCSB.
  const uint64_t newest = workload_->insert_sequence()->Last();
  uint64_t number;
  do {
    number = key_chooser_->Next(&rng_);
  } while (number > newest);
  return number;
}

std::string Client::RandomValue() {
  std::string value(static_cast<size_t>(spec_.field_length), ' ');
  uint64_t bits = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    if (i % 8 == 0) bits = rng_.Next();
    // Printable ASCII from '!' to '~'.
    value[i] = static_cast<char>('!' + (bits & 0xFF) % 94);
    bits >>= 8;
  }
  return value;
}

void Client::BuildAllFields(std::vector<Field>* fields) {
  fields->clear();
  for (int i = 0; i < spec_.field_count; ++i) {
    fields->emplace_back(workload_->field_name(i), RandomValue());
  }
}

void Client::ApplyUpdate(std::vector<Field>* fields) {
  if (spec_.write_all_fields) {
    BuildAllFields(fields);
    return;
  }
  const std::string& name =
      workload_->field_name(static_cast<int>(field_chooser_.Next(&rng_)));
  std::string value = RandomValue();
  for (Field& field : *fields) {
    if (field.first == name) {
      field.second = std::move(value);
      return;
    }
  }
  fields->emplace_back(name, std::move(value));
}

void Client::Finish(OpType type, uint64_t start_nanos) {
  stats_.op(type).latency.Add(NowNanos() - start_nanos);
  completed_.fetch_add(1, std::memory_order_relaxed);
}

bool Client::CheckRecord(OpType type, const std::string& value) {
  if (spec_.read_all_fields) {
    if (!DecodeRecord(value, &fields_) ||
        static_cast<int64_t>(fields_.size()) != spec_.field_count) {
      stats_.RecordError(type, "malformed record (expected " +
                                   std::to_string(spec_.field_count) +
                                   " fields)");
      return false;
    }
    return true;
  }
  const std::string& name =
      workload_->field_name(static_cast<int>(field_chooser_.Next(&rng_)));
  std::string field_value;
  if (!FindField(value, name, &field_value)) {
    stats_.RecordError(type, "record without " + name);
    return false;
  }
  return true;
}

bool Client::DecodeWhole(OpType type, const std::string& key) {
  if (DecodeRecord(value_, &fields_) &&
      static_cast<int64_t>(fields_.size()) == spec_.field_count) {
    return true;
  }
  stats_.RecordError(type, "malformed record under " + key);
  return false;
}

bool Client::ReadExisting(OpType type, const std::string& key) {
  leveldb::Status s =
      database_->db()->Get(database_->read_options(), key, &value_);
  if (s.IsNotFound()) {
    ++stats_.op(type).not_found;
    return false;
  }
  if (!s.ok()) {
    stats_.RecordError(type, s.ToString());
    return false;
  }
  return true;
}

void Client::Write(OpType type, const std::string& key,
                   const std::vector<Field>& fields) {
  EncodeRecord(fields, &encoded_);
  leveldb::Status s =
      database_->db()->Put(database_->write_options(), key, encoded_);
  if (!s.ok()) stats_.RecordError(type, s.ToString());
}

void Client::RewriteExisting(OpType type, const std::string& key) {
  if (ReadExisting(type, key) && DecodeWhole(type, key)) {
    ApplyUpdate(&fields_);
    Write(type, key, fields_);
  }
}

void Client::WriteAllFields(OpType type, const std::string& key) {
  BuildAllFields(&fields_);
  const uint64_t start = NowNanos();
  Write(type, key, fields_);
  Finish(type, start);
}

void Client::LoadRecord(uint64_t key_number) {
  WriteAllFields(kInsert, workload_->Key(key_number));
}

void Client::DoTransaction() {
  switch (operation_chooser_.Next(&rng_)) {
    case kChooseRead:
      if (spec_.zero_lookup_proportion > 0 &&
          rng_.NextDouble() < spec_.zero_lookup_proportion) {
        DoReadAbsent();
      } else {
        DoRead();
      }
      break;
    case kChooseUpdate:
      DoUpdate();
      break;
    case kChooseInsert:
      DoInsert();
      break;
    case kChooseScan:
      DoScan();
      break;
    case kChooseReadModifyWrite:
      DoReadModifyWrite();
      break;
  }
}

void Client::DoRead() {
  const std::string key = workload_->Key(NextKeyNumber());
  const uint64_t start = NowNanos();
  if (ReadExisting(kRead, key)) CheckRecord(kRead, value_);
  Finish(kRead, start);
}

void Client::DoReadAbsent() {
  const std::string key = AbsentKey(workload_->Key(NextKeyNumber()));
  const uint64_t start = NowNanos();
  leveldb::Status s =
      database_->db()->Get(database_->read_options(), key, &value_);
  if (s.IsNotFound()) {
    ++stats_.op(kReadAbsent).not_found;
  } else if (s.ok()) {
    stats_.RecordError(kReadAbsent, "found never-written key " + key);
  } else {
    stats_.RecordError(kReadAbsent, s.ToString());
  }
  Finish(kReadAbsent, start);
}

void Client::DoUpdate() {
  const std::string key = workload_->Key(NextKeyNumber());
  if (spec_.write_all_fields) {
    // Every field is replaced: no need to read the record.
    WriteAllFields(kUpdate, key);
    return;
  }
  const uint64_t start = NowNanos();
  RewriteExisting(kUpdate, key);
  Finish(kUpdate, start);
}

void Client::DoInsert() {
  WriteAllFields(kInsert, workload_->Key(workload_->insert_sequence()->Next()));
}

void Client::DoScan() {
  const std::string key = workload_->Key(NextKeyNumber());
  const uint64_t length = scan_length_chooser_->Next(&rng_);
  const uint64_t start = NowNanos();
  std::unique_ptr<leveldb::Iterator> it(
      database_->db()->NewIterator(database_->read_options()));
  uint64_t visited = 0;
  for (it->Seek(key); it->Valid() && visited < length; it->Next()) {
    value_.assign(it->value().data(), it->value().size());
    if (!CheckRecord(kScan, value_)) break;
    ++visited;
  }
  if (!it->status().ok()) stats_.RecordError(kScan, it->status().ToString());
  it.reset();
  stats_.op(kScan).scanned_records += visited;
  Finish(kScan, start);
}

void Client::DoReadModifyWrite() {
  const std::string key = workload_->Key(NextKeyNumber());
  const uint64_t start = NowNanos();
  RewriteExisting(kReadModifyWrite, key);
  Finish(kReadModifyWrite, start);
}

}  // namespace ycsb

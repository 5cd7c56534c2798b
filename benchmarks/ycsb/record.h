// Keys and records of the YCSB runner.
//
// Key of record number n: "user" followed by the decimal digits of
// FnvHash64(n) (insertorder=hashed, the default) or of n itself
// (insertorder=ordered), left-padded with zeros to `zeropadding` digits
// (default 20, the width of any 64-bit number, so all keys have 24 bytes and
// their byte order is their numeric order).
//
// A record is `fieldcount` fields named field0, field1, ..., stored as one
// LevelDB value:
//   varint32 field count, then per field:
//   varint32 name length, name bytes, varint32 value length, value bytes
// (varint32: 7 bits per byte, least significant group first, high bit set on
// every byte but the last, as in LevelDB's own formats). The YCSB-C binding
// (contrib/ycsb-c) stores records in the same encoding.
#ifndef LEVELDB_BENCHMARKS_YCSB_RECORD_H_
#define LEVELDB_BENCHMARKS_YCSB_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ycsb {

using Field = std::pair<std::string, std::string>;

std::string BuildKeyName(uint64_t key_number, bool hashed, int zero_padding);

// A key that sorts right after `existing_key` and before any other key the
// runner writes (it has one extra byte), so it is never present.
std::string AbsentKey(const std::string& existing_key);

std::string FieldName(int index);

void EncodeRecord(const std::vector<Field>& fields, std::string* out);

// Decodes a whole record; false if `value` is not a well-formed record
// (truncated, overlong lengths or trailing bytes).
bool DecodeRecord(std::string_view value, std::vector<Field>* fields);

// Finds one field without decoding the others. Returns false if the field
// is missing or the record is malformed.
bool FindField(std::string_view value, std::string_view name,
               std::string* field_value);

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_RECORD_H_

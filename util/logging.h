// Small string helpers for file names, properties and log messages.
#ifndef STORAGE_LEVELDB_UTIL_LOGGING_H_
#define STORAGE_LEVELDB_UTIL_LOGGING_H_

#include <cstdint>
#include <string>

#include "leveldb/slice.h"

namespace leveldb {

// Appends the decimal form of n.
void AppendDecimal(std::string* dst, uint64_t n);

// Appends value with every non-printable byte written as \xNN.
void AppendEscaped(std::string* dst, const Slice& value);

std::string DecimalString(uint64_t n);
std::string EscapedString(const Slice& value);

// Parses a run of decimal digits at the front of *in into *value and drops
// them from *in. Fails on no digits or on overflow of 64 bits.
bool ConsumeDecimal(Slice* in, uint64_t* value);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_LOGGING_H_

#include "record.h"

#include "generators.h"

namespace ycsb {

namespace {

void PutVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

bool GetVarint32(std::string_view* input, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && !input->empty(); shift += 7) {
    const uint32_t byte = static_cast<unsigned char>(input->front());
    input->remove_prefix(1);
    if (shift == 28 && byte > 0x0F) return false;  // beyond 32 bits
    result |= (byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool GetLengthPrefixed(std::string_view* input, std::string_view* bytes) {
  uint32_t length = 0;
  if (!GetVarint32(input, &length) || length > input->size()) return false;
  *bytes = input->substr(0, length);
  input->remove_prefix(length);
  return true;
}

// Walks the fields of an encoded record, checking bounds as it goes.
class FieldReader {
 public:
  explicit FieldReader(std::string_view value) : rest_(value) {
    uint32_t count = 0;
    ok_ = GetVarint32(&rest_, &count);
    remaining_ = count;
  }

  // False at the end or on malformed input (then ok() is false too).
  bool Next(std::string_view* name, std::string_view* value) {
    if (!ok_ || remaining_ == 0) return false;
    if (!GetLengthPrefixed(&rest_, name) || !GetLengthPrefixed(&rest_, value)) {
      ok_ = false;
      return false;
    }
    --remaining_;
    return true;
  }

  // True once every field was read and nothing trails them.
  bool Complete() const { return ok_ && remaining_ == 0 && rest_.empty(); }

 private:
  std::string_view rest_;
  uint32_t remaining_ = 0;
  bool ok_ = false;
};

}  // namespace

std::string BuildKeyName(uint64_t key_number, bool hashed, int zero_padding) {
  const std::string digits =
      std::to_string(hashed ? FnvHash64(key_number) : key_number);
  std::string key = "user";
  if (zero_padding > static_cast<int>(digits.size())) {
    key.append(static_cast<size_t>(zero_padding) - digits.size(), '0');
  }
  key.append(digits);
  return key;
}

std::string AbsentKey(const std::string& existing_key) {
  // Written keys are "user" and digits only, so this key is never written.
  // With the default padding all keys have the same length, and the extra
  // byte places it between `existing_key` and the next key.
  return existing_key + "~";
}

std::string FieldName(int index) { return "field" + std::to_string(index); }

void EncodeRecord(const std::vector<Field>& fields, std::string* out) {
  out->clear();
  auto put = [out](const std::string& bytes) {
    PutVarint32(static_cast<uint32_t>(bytes.size()), out);
    out->append(bytes);
  };
  PutVarint32(static_cast<uint32_t>(fields.size()), out);
  for (const Field& field : fields) {
    put(field.first);
    put(field.second);
  }
}

bool DecodeRecord(std::string_view value, std::vector<Field>* fields) {
  fields->clear();
  FieldReader reader(value);
  std::string_view name;
  std::string_view field_value;
  while (reader.Next(&name, &field_value)) {
    fields->emplace_back(std::string(name), std::string(field_value));
  }
  return reader.Complete();
}

bool FindField(std::string_view value, std::string_view name,
               std::string* field_value) {
  FieldReader reader(value);
  std::string_view current_name;
  std::string_view current_value;
  while (reader.Next(&current_name, &current_value)) {
    if (current_name == name) {
      field_value->assign(current_value.data(), current_value.size());
      return true;
    }
  }
  return false;
}

}  // namespace ycsb

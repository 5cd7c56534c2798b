// Minimal local stand-in for YCSB-C's core/properties.h (utils::Properties),
// used ONLY to build and test the LevelDB binding outside YCSB-C. It offers
// the calls the binding and the factory make: GetProperty with a default,
// SetProperty, operator[] and properties() (every name and value, as
// YCSB-C's loader stored them: blanks around them are kept).
#ifndef YCSB_C_TESTING_CORE_PROPERTIES_H_
#define YCSB_C_TESTING_CORE_PROPERTIES_H_

#include <map>
#include <string>

namespace utils {

class Properties {
 public:
  std::string GetProperty(
      const std::string& key,
      const std::string& default_value = std::string()) const {
    std::map<std::string, std::string>::const_iterator it = values_.find(key);
    return it == values_.end() ? default_value : it->second;
  }

  // Like YCSB-C's: not const, and a missing key is added with an empty
  // value.
  std::string& operator[](const std::string& key) { return values_[key]; }

  void SetProperty(const std::string& key, const std::string& value) {
    values_[key] = value;
  }

  const std::map<std::string, std::string>& properties() const {
    return values_;
  }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace utils

#endif  // YCSB_C_TESTING_CORE_PROPERTIES_H_

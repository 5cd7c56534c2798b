// The C API end to end: only functions of leveldb/c.h touch the database;
// C++ is used just for the test harness and temporary directories.
#include "leveldb/c.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/test_util.h"

namespace {

std::string Str(const char* data, size_t n) { return std::string(data, n); }

// Fetches key and returns its value, or "<missing>"; fails the test on an
// error.
std::string Get(leveldb_t* db, const leveldb_readoptions_t* options,
                const std::string& key) {
  char* err = nullptr;
  size_t len = 12345;
  char* value = leveldb_get(db, options, key.data(), key.size(), &len, &err);
  EXPECT_EQ(nullptr, err) << err;
  leveldb_free(err);
  if (value == nullptr) {
    EXPECT_EQ(0u, len);
    return "<missing>";
  }
  std::string result(value, len);
  leveldb_free(value);
  return result;
}

std::string IterKey(const leveldb_iterator_t* iter) {
  size_t len;
  const char* data = leveldb_iter_key(iter, &len);
  return Str(data, len);
}

std::string IterValue(const leveldb_iterator_t* iter) {
  size_t len;
  const char* data = leveldb_iter_value(iter, &len);
  return Str(data, len);
}

// Iterator contents as "k=v," pairs in iteration order.
std::string ScanForward(leveldb_iterator_t* iter) {
  std::string out;
  for (leveldb_iter_seek_to_first(iter); leveldb_iter_valid(iter);
       leveldb_iter_next(iter)) {
    size_t klen, vlen;
    const char* k = leveldb_iter_key(iter, &klen);
    const char* v = leveldb_iter_value(iter, &vlen);
    out += Str(k, klen) + "=" + Str(v, vlen) + ",";
  }
  return out;
}

// ---- C callbacks ----

struct ComparatorState {
  int destroyed = 0;
};

void ComparatorDestroy(void* arg) {
  static_cast<ComparatorState*>(arg)->destroyed++;
}

// Orders keys in reverse byte order.
int ReverseCompare(void*, const char* a, size_t alen, const char* b,
                   size_t blen) {
  const int c = std::string(a, alen).compare(std::string(b, blen));
  return c < 0 ? 1 : (c > 0 ? -1 : 0);
}

const char* ReverseName(void*) { return "test.ReverseComparator"; }

struct FilterState {
  int destroyed = 0;
  int created = 0;     // calls of create_filter
  uint8_t answer = 1;  // what key_may_match says
  int match_calls = 0;
};

void FilterDestroy(void* arg) { static_cast<FilterState*>(arg)->destroyed++; }

char* FilterCreate(void* arg, const char* const* keys, const size_t* lens,
                   int n, size_t* filter_length) {
  FilterState* state = static_cast<FilterState*>(arg);
  state->created++;
  // The filter's content does not matter: key_may_match answers from state.
  // Still check that the keys arrive intact.
  for (int i = 0; i < n; i++) {
    EXPECT_NE(nullptr, keys[i]);
    EXPECT_GT(lens[i], 0u);
  }
  char* filter = static_cast<char*>(std::malloc(4));
  std::memcpy(filter, "fake", 4);
  *filter_length = 4;
  return filter;
}

uint8_t FilterMatch(void* arg, const char*, size_t, const char* filter,
                    size_t length) {
  FilterState* state = static_cast<FilterState*>(arg);
  state->match_calls++;
  EXPECT_EQ("fake", Str(filter, length));
  return state->answer;
}

const char* FilterName(void*) { return "test.FakeFilter"; }

struct BatchLog {
  std::string text;
};

void BatchPut(void* arg, const char* k, size_t klen, const char* v,
              size_t vlen) {
  static_cast<BatchLog*>(arg)->text +=
      "put(" + Str(k, klen) + "," + Str(v, vlen) + ")";
}

void BatchDelete(void* arg, const char* k, size_t klen) {
  static_cast<BatchLog*>(arg)->text += "del(" + Str(k, klen) + ")";
}

// ---- Fixture ----

class CApiTest : public testing::Test {
 protected:
  CApiTest() {
    dir_ = leveldb::test::NewTempDir(leveldb::Env::Default(), "c_api");
    dbname_ = dir_ + "/db";
    env_ = leveldb_create_default_env();
    cache_ = leveldb_cache_create_lru(100000);
    options_ = leveldb_options_create();
    leveldb_options_set_env(options_, env_);
    leveldb_options_set_cache(options_, cache_);
    leveldb_options_set_info_log(options_, nullptr);
    leveldb_options_set_write_buffer_size(options_, 100000);
    leveldb_options_set_paranoid_checks(options_, 1);
    leveldb_options_set_max_open_files(options_, 10);
    leveldb_options_set_block_size(options_, 1024);
    leveldb_options_set_block_restart_interval(options_, 8);
    leveldb_options_set_max_file_size(options_, 3 << 20);
    leveldb_options_set_compression(options_, leveldb_no_compression);
    roptions_ = leveldb_readoptions_create();
    leveldb_readoptions_set_verify_checksums(roptions_, 1);
    leveldb_readoptions_set_fill_cache(roptions_, 0);
    woptions_ = leveldb_writeoptions_create();
  }

  ~CApiTest() override {
    if (db_ != nullptr) leveldb_close(db_);
    leveldb_writeoptions_destroy(woptions_);
    leveldb_readoptions_destroy(roptions_);
    leveldb_options_destroy(options_);
    leveldb_cache_destroy(cache_);
    leveldb_env_destroy(env_);
    leveldb::test::RemoveDirRecursively(leveldb::Env::Default(), dir_);
  }

  void OpenOrDie() {
    leveldb_options_set_create_if_missing(options_, 1);
    char* err = nullptr;
    db_ = leveldb_open(options_, dbname_.c_str(), &err);
    ASSERT_EQ(nullptr, err) << err;
    ASSERT_NE(nullptr, db_);
  }

  void Close() {
    leveldb_close(db_);
    db_ = nullptr;
  }

  void Put(const std::string& k, const std::string& v) {
    char* err = nullptr;
    leveldb_put(db_, woptions_, k.data(), k.size(), v.data(), v.size(), &err);
    ASSERT_EQ(nullptr, err) << err;
  }

  std::string dir_;
  std::string dbname_;
  leveldb_env_t* env_;
  leveldb_cache_t* cache_;
  leveldb_options_t* options_;
  leveldb_readoptions_t* roptions_;
  leveldb_writeoptions_t* woptions_;
  leveldb_t* db_ = nullptr;
};

TEST(CApi, Version) {
  EXPECT_EQ(1, leveldb_major_version());
  EXPECT_EQ(23, leveldb_minor_version());
}

TEST(CApi, TestDirectory) {
  leveldb_env_t* env = leveldb_create_default_env();
  char* dir = leveldb_env_get_test_directory(env);
  ASSERT_NE(nullptr, dir);
  EXPECT_GT(std::strlen(dir), 0u);
  leveldb_free(dir);
  leveldb_env_destroy(env);
  // Destroying the wrapper must leave the process-wide Env usable.
  leveldb_env_t* again = leveldb_create_default_env();
  dir = leveldb_env_get_test_directory(again);
  EXPECT_NE(nullptr, dir);
  leveldb_free(dir);
  leveldb_env_destroy(again);
  std::string path;
  EXPECT_TRUE(leveldb::Env::Default()->GetTestDirectory(&path).ok());
}

TEST_F(CApiTest, OpenMissingFailsAndErrorsReplaceEachOther) {
  leveldb_options_set_create_if_missing(options_, 0);
  char* err = nullptr;
  EXPECT_EQ(nullptr, leveldb_open(options_, dbname_.c_str(), &err));
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, "does not exist")) << err;

  OpenOrDie();
  Close();
  // A second, different failure frees the first message (leak checkers
  // notice if it does not) and stores its own.
  leveldb_options_set_create_if_missing(options_, 0);
  leveldb_options_set_error_if_exists(options_, 1);
  EXPECT_EQ(nullptr, leveldb_open(options_, dbname_.c_str(), &err));
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, "exists")) << err;
  EXPECT_EQ(nullptr, std::strstr(err, "does not exist")) << err;
  leveldb_free(err);
}

TEST_F(CApiTest, SuccessLeavesErrptrAlone) {
  OpenOrDie();
  char* err = static_cast<char*>(std::malloc(8));
  std::memcpy(err, "earlier", 8);
  char* const before = err;
  leveldb_put(db_, woptions_, "k", 1, "v", 1, &err);
  leveldb_delete(db_, woptions_, "x", 1, &err);
  size_t len;
  char* value = leveldb_get(db_, roptions_, "k", 1, &len, &err);
  EXPECT_EQ(before, err);
  EXPECT_STREQ("earlier", err);
  ASSERT_NE(nullptr, value);
  EXPECT_EQ("v", Str(value, len));
  leveldb_free(value);
  // A missing key is not an error either.
  EXPECT_EQ(nullptr, leveldb_get(db_, roptions_, "nope", 4, &len, &err));
  EXPECT_EQ(before, err);
  leveldb_free(err);
}

TEST_F(CApiTest, ErrorIfExists) {
  OpenOrDie();
  Close();
  leveldb_options_set_error_if_exists(options_, 1);
  char* err = nullptr;
  EXPECT_EQ(nullptr, leveldb_open(options_, dbname_.c_str(), &err));
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, "exists")) << err;
  leveldb_free(err);
}

TEST_F(CApiTest, PutGetDelete) {
  OpenOrDie();
  EXPECT_EQ("<missing>", Get(db_, roptions_, "foo"));
  Put("foo", "hello");
  EXPECT_EQ("hello", Get(db_, roptions_, "foo"));
  Put(std::string("a\0b", 3), std::string("x\0y", 3));
  EXPECT_EQ(std::string("x\0y", 3),
            Get(db_, roptions_, std::string("a\0b", 3)));
  Put("empty", "");
  EXPECT_EQ("", Get(db_, roptions_, "empty"));

  char* err = nullptr;
  leveldb_writeoptions_t* synced = leveldb_writeoptions_create();
  leveldb_writeoptions_set_sync(synced, 1);
  leveldb_put(db_, synced, "durable", 7, "yes", 3, &err);
  ASSERT_EQ(nullptr, err) << err;
  leveldb_writeoptions_destroy(synced);
  EXPECT_EQ("yes", Get(db_, roptions_, "durable"));

  leveldb_delete(db_, woptions_, "foo", 3, &err);
  ASSERT_EQ(nullptr, err);
  EXPECT_EQ("<missing>", Get(db_, roptions_, "foo"));
}

TEST_F(CApiTest, WriteBatches) {
  OpenOrDie();
  Put("foo", "hello");
  leveldb_writebatch_t* wb = leveldb_writebatch_create();
  leveldb_writebatch_put(wb, "foo", 3, "a", 1);
  leveldb_writebatch_clear(wb);
  leveldb_writebatch_put(wb, "bar", 3, "b", 1);
  leveldb_writebatch_put(wb, "box", 3, "c", 1);
  leveldb_writebatch_t* more = leveldb_writebatch_create();
  leveldb_writebatch_delete(more, "bar", 3);
  leveldb_writebatch_append(wb, more);
  leveldb_writebatch_destroy(more);

  BatchLog log;
  leveldb_writebatch_iterate(wb, &log, BatchPut, BatchDelete);
  EXPECT_EQ("put(bar,b)put(box,c)del(bar)", log.text);

  char* err = nullptr;
  leveldb_write(db_, woptions_, wb, &err);
  ASSERT_EQ(nullptr, err) << err;
  leveldb_writebatch_destroy(wb);
  EXPECT_EQ("hello", Get(db_, roptions_, "foo"));
  EXPECT_EQ("<missing>", Get(db_, roptions_, "bar"));
  EXPECT_EQ("c", Get(db_, roptions_, "box"));
}

TEST_F(CApiTest, Iterators) {
  OpenOrDie();
  Put("box", "c");
  Put("foo", "hello");
  Put("bar", "b");
  leveldb_iterator_t* iter = leveldb_create_iterator(db_, roptions_);
  EXPECT_FALSE(leveldb_iter_valid(iter));
  EXPECT_EQ("bar=b,box=c,foo=hello,", ScanForward(iter));

  leveldb_iter_seek_to_last(iter);
  ASSERT_TRUE(leveldb_iter_valid(iter));
  EXPECT_EQ("foo", IterKey(iter));
  leveldb_iter_prev(iter);
  EXPECT_EQ("box", IterKey(iter));
  leveldb_iter_prev(iter);
  leveldb_iter_prev(iter);
  EXPECT_FALSE(leveldb_iter_valid(iter));

  leveldb_iter_seek(iter, "bo", 2);
  ASSERT_TRUE(leveldb_iter_valid(iter));
  EXPECT_EQ("box", IterKey(iter));
  EXPECT_EQ("c", IterValue(iter));
  leveldb_iter_seek(iter, "zzz", 3);
  EXPECT_FALSE(leveldb_iter_valid(iter));

  char* err = nullptr;
  leveldb_iter_get_error(iter, &err);
  EXPECT_EQ(nullptr, err);
  leveldb_iter_destroy(iter);
}

TEST_F(CApiTest, Snapshots) {
  OpenOrDie();
  Put("foo", "hello");
  const leveldb_snapshot_t* snap = leveldb_create_snapshot(db_);
  char* err = nullptr;
  leveldb_delete(db_, woptions_, "foo", 3, &err);
  Put("new", "x");
  ASSERT_EQ(nullptr, err);

  leveldb_readoptions_set_snapshot(roptions_, snap);
  EXPECT_EQ("hello", Get(db_, roptions_, "foo"));
  EXPECT_EQ("<missing>", Get(db_, roptions_, "new"));
  leveldb_iterator_t* iter = leveldb_create_iterator(db_, roptions_);
  EXPECT_EQ("foo=hello,", ScanForward(iter));
  leveldb_iter_destroy(iter);

  leveldb_readoptions_set_snapshot(roptions_, nullptr);
  EXPECT_EQ("<missing>", Get(db_, roptions_, "foo"));
  EXPECT_EQ("x", Get(db_, roptions_, "new"));
  leveldb_release_snapshot(db_, snap);
}

TEST_F(CApiTest, PropertiesSizesAndCompaction) {
  OpenOrDie();
  // Enough data to fill several tables.
  const std::string value(1000, 'v');
  for (int i = 0; i < 20000; i++) {
    char key[32];
    std::snprintf(key, sizeof(key), "k%06d", i);
    Put(key, value);
  }
  leveldb_compact_range(db_, nullptr, 0, nullptr, 0);
  leveldb_compact_range(db_, "k000100", 7, "k000200", 7);

  char* prop = leveldb_property_value(db_, "nosuchprop");
  EXPECT_EQ(nullptr, prop);
  prop = leveldb_property_value(db_, "leveldb.stats");
  ASSERT_NE(nullptr, prop);
  EXPECT_GT(std::strlen(prop), 0u);
  leveldb_free(prop);
  prop = leveldb_property_value(db_, "leveldb.num-files-at-level0");
  ASSERT_NE(nullptr, prop);
  EXPECT_STREQ("0", prop);  // a full compaction leaves level 0 empty
  leveldb_free(prop);

  const char* starts[2] = {"a", "k00000"};
  const size_t start_lens[2] = {1, 6};
  const char* limits[2] = {"k00000", "k2"};
  const size_t limit_lens[2] = {6, 2};
  uint64_t sizes[2] = {99, 99};
  leveldb_approximate_sizes(db_, 2, starts, start_lens, limits, limit_lens,
                            sizes);
  EXPECT_EQ(0u, sizes[0]);                 // no keys before "k00000"
  EXPECT_GT(sizes[1], 10u * 1000 * 1000);  // about 20 MB of values
  EXPECT_LT(sizes[1], 30u * 1000 * 1000);
  EXPECT_EQ(value, Get(db_, roptions_, "k019999"));
}

TEST_F(CApiTest, RepairAndDestroy) {
  OpenOrDie();
  Put("foo", "hello");
  Put("box", "c");
  Close();

  char* err = nullptr;
  leveldb_options_set_create_if_missing(options_, 0);
  leveldb_options_set_error_if_exists(options_, 0);
  leveldb_repair_db(options_, dbname_.c_str(), &err);
  ASSERT_EQ(nullptr, err) << err;
  db_ = leveldb_open(options_, dbname_.c_str(), &err);
  ASSERT_EQ(nullptr, err) << err;
  EXPECT_EQ("hello", Get(db_, roptions_, "foo"));
  EXPECT_EQ("c", Get(db_, roptions_, "box"));
  Close();

  leveldb_destroy_db(options_, dbname_.c_str(), &err);
  ASSERT_EQ(nullptr, err) << err;
  EXPECT_EQ(nullptr, leveldb_open(options_, dbname_.c_str(), &err));
  ASSERT_NE(nullptr, err);
  leveldb_free(err);
}

TEST_F(CApiTest, CustomComparator) {
  ComparatorState state;
  leveldb_comparator_t* cmp = leveldb_comparator_create(
      &state, ComparatorDestroy, ReverseCompare, ReverseName);
  leveldb_options_set_comparator(options_, cmp);
  OpenOrDie();
  Put("a", "1");
  Put("c", "3");
  Put("b", "2");
  leveldb_compact_range(db_, nullptr, 0, nullptr, 0);
  Put("d", "4");  // one key left in the memtable
  leveldb_iterator_t* iter = leveldb_create_iterator(db_, roptions_);
  EXPECT_EQ("d=4,c=3,b=2,a=1,", ScanForward(iter));
  leveldb_iter_destroy(iter);
  EXPECT_EQ("2", Get(db_, roptions_, "b"));
  Close();

  // The database remembers its comparator's name.
  leveldb_options_set_comparator(options_, nullptr);
  leveldb_options_t* plain = leveldb_options_create();
  char* err = nullptr;
  EXPECT_EQ(nullptr, leveldb_open(plain, dbname_.c_str(), &err));
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, "test.ReverseComparator")) << err;
  leveldb_free(err);
  leveldb_options_destroy(plain);

  EXPECT_EQ(0, state.destroyed);
  leveldb_comparator_destroy(cmp);
  EXPECT_EQ(1, state.destroyed);
}

TEST_F(CApiTest, CustomFilterPolicy) {
  FilterState state;
  leveldb_filterpolicy_t* policy = leveldb_filterpolicy_create(
      &state, FilterDestroy, FilterCreate, FilterMatch, FilterName);
  leveldb_options_set_filter_policy(options_, policy);
  OpenOrDie();
  Put("foo", "foovalue");
  Put("bar", "barvalue");
  leveldb_compact_range(db_, nullptr, 0, nullptr, 0);
  EXPECT_GT(state.created, 0);

  // With everything in tables, lookups go through the filter: a "no"
  // hides keys that exist, which proves the C callback is consulted.
  state.answer = 0;
  EXPECT_EQ("<missing>", Get(db_, roptions_, "foo"));
  EXPECT_EQ("<missing>", Get(db_, roptions_, "bar"));
  EXPECT_GT(state.match_calls, 0);
  state.answer = 1;
  EXPECT_EQ("foovalue", Get(db_, roptions_, "foo"));
  EXPECT_EQ("barvalue", Get(db_, roptions_, "bar"));
  Close();

  leveldb_options_set_filter_policy(options_, nullptr);
  EXPECT_EQ(0, state.destroyed);
  leveldb_filterpolicy_destroy(policy);
  EXPECT_EQ(1, state.destroyed);
}

TEST_F(CApiTest, BloomFilterPolicy) {
  leveldb_filterpolicy_t* bloom = leveldb_filterpolicy_create_bloom(10);
  leveldb_options_set_filter_policy(options_, bloom);
  OpenOrDie();
  for (int i = 0; i < 1000; i++) Put("key" + std::to_string(i), "v");
  leveldb_compact_range(db_, nullptr, 0, nullptr, 0);
  for (int i = 0; i < 1000; i += 37) {
    EXPECT_EQ("v", Get(db_, roptions_, "key" + std::to_string(i)));
  }
  EXPECT_EQ("<missing>", Get(db_, roptions_, "key1000"));
  Close();

  // The wrapper reports the built-in policy's name, so tables it writes
  // carry the standard "filter.leveldb.BuiltinBloomFilter2" block.
  std::vector<std::string> children;
  ASSERT_TRUE(leveldb::Env::Default()->GetChildren(dbname_, &children).ok());
  std::string table_bytes;
  for (const std::string& child : children) {
    if (child.size() > 4 && child.compare(child.size() - 4, 4, ".ldb") == 0) {
      std::string contents;
      ASSERT_TRUE(leveldb::ReadFileToString(leveldb::Env::Default(),
                                            dbname_ + "/" + child, &contents)
                      .ok());
      table_bytes += contents;
    }
  }
  EXPECT_NE(std::string::npos,
            table_bytes.find("filter.leveldb.BuiltinBloomFilter2"));
  leveldb_options_set_filter_policy(options_, nullptr);
  leveldb_filterpolicy_destroy(bloom);
}

// Sets LEVELDB_ELASTICBF (or unsets it, for null) for the life of the
// object and restores what was there before.
class ScopedElasticSwitch {
 public:
  explicit ScopedElasticSwitch(const char* value) {
    const char* old = std::getenv(kVariable);
    had_value_ = old != nullptr;
    if (had_value_) saved_ = old;
    Set(value);
  }
  ~ScopedElasticSwitch() { Set(had_value_ ? saved_.c_str() : nullptr); }

  ScopedElasticSwitch(const ScopedElasticSwitch&) = delete;
  ScopedElasticSwitch& operator=(const ScopedElasticSwitch&) = delete;

 private:
  static constexpr char kVariable[] = "LEVELDB_ELASTICBF";

  static void Set(const char* value) {
    if (value != nullptr) {
      setenv(kVariable, value, /*overwrite=*/1);
    } else {
      unsetenv(kVariable);
    }
  }

  bool had_value_ = false;
  std::string saved_;
};

// The first line of leveldb.elasticbf: "enabled: yes" or "enabled: no".
std::string ElasticEnabledLine(leveldb_t* db) {
  char* prop = leveldb_property_value(db, "leveldb.elasticbf");
  EXPECT_NE(nullptr, prop);
  if (prop == nullptr) return "";
  std::string text(prop);
  leveldb_free(prop);
  return text.substr(0, text.find('\n'));
}

// A program that only has the C API turns ElasticBF on with the variable.
TEST_F(CApiTest, ElasticSwitchReplacesTheBloomPolicy) {
  leveldb_filterpolicy_t* bloom = leveldb_filterpolicy_create_bloom(10);
  leveldb_options_set_filter_policy(options_, bloom);
  {
    ScopedElasticSwitch on("memory_bits_per_key=6");
    OpenOrDie();
  }
  for (int i = 0; i < 3000; i++) Put("key" + std::to_string(i), "v");
  leveldb_compact_range(db_, nullptr, 0, nullptr, 0);
  EXPECT_EQ("enabled: yes", ElasticEnabledLine(db_));
  for (int i = 0; i < 3000; i += 37) {
    EXPECT_EQ("v", Get(db_, roptions_, "key" + std::to_string(i)));
  }
  EXPECT_EQ("<missing>", Get(db_, roptions_, "key3000"));
  Close();

  // Without the variable the same options give the Bloom policy, and the
  // elastic tables are still read.
  {
    ScopedElasticSwitch off(nullptr);
    OpenOrDie();
  }
  EXPECT_EQ("enabled: no", ElasticEnabledLine(db_));
  EXPECT_EQ("v", Get(db_, roptions_, "key1"));
  Close();
  leveldb_options_set_filter_policy(options_, nullptr);
  leveldb_filterpolicy_destroy(bloom);
}

TEST_F(CApiTest, ElasticSwitchWithAnInvalidValueFailsTheOpen) {
  ScopedElasticSwitch bad("bits_per_unit=99");
  leveldb_options_set_create_if_missing(options_, 1);
  char* err = nullptr;
  leveldb_t* db = leveldb_open(options_, dbname_.c_str(), &err);
  EXPECT_EQ(nullptr, db);
  ASSERT_NE(nullptr, err);
  const std::string message(err);
  leveldb_free(err);
  EXPECT_NE(std::string::npos, message.find("LEVELDB_ELASTICBF")) << message;
  EXPECT_NE(std::string::npos, message.find("bits_per_unit")) << message;
  EXPECT_FALSE(leveldb::Env::Default()->FileExists(dbname_));
  if (db != nullptr) leveldb_close(db);
}

}  // namespace

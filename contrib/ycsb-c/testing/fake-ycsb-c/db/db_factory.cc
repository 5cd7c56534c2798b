// The branch chain has the shape of YCSB-C's factory, Redis branch included.
#include "db/db_factory.h"

#include <string>
#include "db/basic_db.h"
#include "db/redis_db.h"

using ycsbc::DB;
using ycsbc::DBFactory;

DB* DBFactory::CreateDB(utils::Properties& props) {
  if (props["dbname"] == "basic") {
    return new BasicDB;
  } else if (props["dbname"] == "redis") {
    int port = std::stoi(props["port"]);
    return new RedisDB(props["host"].c_str(), port);
  } else if (props["dbname"] == "other") {
    return new BasicDB;
  } else
    return NULL;
}

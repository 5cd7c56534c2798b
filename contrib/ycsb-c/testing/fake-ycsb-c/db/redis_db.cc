#include "redis_db.h"

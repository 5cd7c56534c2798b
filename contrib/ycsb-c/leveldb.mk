# Makefile fragment for building YCSB-C with the LevelDB (ElasticBF fork)
# binding. install_binding.sh writes it (with the prefix it was given) and
# appends `include .../leveldb.mk` to YCSB-C's Makefile and db/Makefile; by
# hand, add that line at the end of both. build_ycsbc.sh then builds with it.
#
# LEVELDB_PREFIX (an absolute path: make runs in YCSB-C's subdirectories)
# is where `cmake --install ... --prefix` put the fork
# (include/leveldb/*.h, lib/libleveldb.so). Linking with -L and an rpath
# to that directory keeps Debian's own libleveldb (if installed) out of the
# way.
LEVELDB_PREFIX ?= /usr/local
LEVELDB_LIBDIR ?= $(LEVELDB_PREFIX)/lib

CFLAGS += -I$(LEVELDB_PREFIX)/include
LDFLAGS += -L$(LEVELDB_LIBDIR) -Wl,-rpath,$(LEVELDB_LIBDIR) -lleveldb

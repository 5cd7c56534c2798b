"""Debian's python3-plyvel on the fork's libleveldb.so.1d, with ElasticBF
switched on by LEVELDB_ELASTICBF. plyvel's extension module was linked with
Debian's LevelDB 1.23 and is not rebuilt: the switch is the only way it can
use ElasticBF.

ctest (interop_plyvel_elastic) runs it with Debian's interpreter:

  env LD_LIBRARY_PATH=FORK_LIBDIR LEVELDB_ELASTICBF=1 \\
      /usr/bin/python3 -I plyvel_elastic.py FORK_LIBDIR WORK_DIR

It exits 0 only if plyvel really runs on FORK_LIBDIR/libleveldb.so.1d (the
loader's view through ldd, and this process's own mappings), ElasticBF is
on, every key reads back and an invalid value of the variable is refused.
"""

import os
import shutil
import subprocess
import sys

KEYS = 20000


def fail(message):
    print("plyvel_elastic: FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def mapped_leveldb_libraries():
    """Real paths of the LevelDB libraries mapped into this process."""
    found = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and "libleveldb.so" in os.path.basename(fields[5]):
                found.add(os.path.realpath(fields[5]))
    return found


def key(i):
    return b"key-%08d" % i


def value(i):
    return b"value-%d-" % i + b"v" * 90


def first_line(data):
    return data.split(b"\n", 1)[0] if data is not None else None


def check_loader(plyvel, fork_lib):
    ldd = subprocess.run(["ldd", plyvel._plyvel.__file__],
                         capture_output=True, text=True, check=True).stdout
    check("libleveldb.so.1d => " + fork_lib + " " in ldd,
          "ldd does not resolve libleveldb.so.1d to the fork:\n" + ldd)
    mapped = mapped_leveldb_libraries()
    check(mapped == {os.path.realpath(fork_lib)},
          "mapped LevelDB libraries are %s, expected only %s"
          % (sorted(mapped), os.path.realpath(fork_lib)))
    print("plyvel_elastic: plyvel runs on " + os.path.realpath(fork_lib))


def write_and_read(plyvel, db_dir):
    db = plyvel.DB(db_dir, create_if_missing=True, bloom_filter_bits=10,
                   write_buffer_size=256 * 1024)
    with db.write_batch() as batch:
        for i in range(KEYS):
            batch.put(key(i), value(i))
    db.compact_range()
    for i in range(0, KEYS, 7):
        check(db.get(key(i)) == value(i), "wrong value for %r" % key(i))
        check(db.get(key(i) + b"-absent") is None, "absent key found")
    elastic = db.get_property(b"leveldb.elasticbf")
    check(first_line(elastic) == b"enabled: yes",
          "leveldb.elasticbf is %r" % elastic)
    print("plyvel_elastic: leveldb.elasticbf: " +
          first_line(elastic).decode())
    db.close()


def reopen_without_switch(plyvel, db_dir):
    del os.environ["LEVELDB_ELASTICBF"]  # putenv: DB::Open sees it
    db = plyvel.DB(db_dir, bloom_filter_bits=10)
    check(first_line(db.get_property(b"leveldb.elasticbf")) == b"enabled: no",
          "ElasticBF on without the variable")
    check(sum(1 for _ in db.iterator()) == KEYS, "keys lost")
    check(db.get(key(KEYS - 1)) == value(KEYS - 1), "last key lost")
    db.close()


def invalid_value_is_refused(plyvel, work):
    os.environ["LEVELDB_ELASTICBF"] = "bits_per_unit=99"
    missing = os.path.join(work, "never-created")
    try:
        plyvel.DB(missing, create_if_missing=True)
    except plyvel.Error as e:
        message = str(e)
    else:
        fail("an invalid LEVELDB_ELASTICBF was accepted")
    check("LEVELDB_ELASTICBF" in message and "bits_per_unit" in message,
          "unclear error: " + message)
    check(not os.path.exists(missing), "the refused open created " + missing)
    print("plyvel_elastic: refused: " + message)


def main():
    if len(sys.argv) != 3:
        fail("usage: plyvel_elastic.py FORK_LIBDIR WORK_DIR")
    fork_lib = os.path.join(sys.argv[1], "libleveldb.so.1d")
    work = sys.argv[2]
    check(os.path.exists(fork_lib), "no " + fork_lib)
    check(os.environ.get("LEVELDB_ELASTICBF") == "1",
          "run with LEVELDB_ELASTICBF=1")
    import plyvel  # Debian's python3-plyvel
    check_loader(plyvel, fork_lib)

    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db_dir = os.path.join(work, "db")
    write_and_read(plyvel, db_dir)
    reopen_without_switch(plyvel, db_dir)
    invalid_value_is_refused(plyvel, work)
    shutil.rmtree(work)
    print("plyvel_elastic: all checks passed")


if __name__ == "__main__":
    main()

"""Runs Debian's python3-plyvel on whichever libleveldb.so.1d the loader finds.

    plyvel_check.py PHASE DB_DIR EXPECTED_LIBRARY

Checks first that the LevelDB library mapped into this process is
EXPECTED_LIBRARY (a real path) and no other, reading /proc/self/maps, and
that it is the fork exactly when the phase says so (only the fork answers
the "leveldb.io-stats" property). Then, by PHASE:

    create  (Debian's library) a new database holding the first state
    change  (the fork) verifies the first state, iterates both ways, takes a
            snapshot, writes, deletes, compacts, reopens: the second state
    reread  (Debian's library) verifies the second state

Any failed check exits non-zero with a message.
"""

import os
import sys

import plyvel

KEYS = 2000


def fail(message):
    sys.exit("plyvel_check: " + message)


def expect(condition, message):
    if not condition:
        fail(message)


def key(i):
    return b"key%06d" % i


def value(i, generation):
    return (b"v%d-%d-" % (generation, i)) * (1 + i % 7)


def first_state():
    return {key(i): value(i, 1) for i in range(KEYS)}


def second_state():
    state = first_state()
    for i in range(0, KEYS, 3):
        del state[key(i)]
    for i in range(KEYS, KEYS + 500):
        state[key(i)] = value(i, 2)
    for i in range(1, KEYS, 5):
        state[key(i)] = value(i, 3)
    return state


def mapped_leveldb_files():
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(None, 5)
            if len(fields) == 6 and "libleveldb" in fields[5]:
                paths.add(fields[5].strip())
    return paths


def check_library(expected, want_fork, db):
    mapped = mapped_leveldb_files()
    expect(mapped == {expected},
           "mapped LevelDB files %s, expected only %s" %
           (sorted(mapped), expected))
    is_fork = db.get_property(b"leveldb.io-stats") is not None
    expect(is_fork == want_fork,
           "library %s answers leveldb.io-stats: %s, expected %s" %
           (expected, is_fork, want_fork))


def verify(db, state, what):
    items = list(db.iterator())
    expect(items == sorted(state.items()),
           "%s: forward scan differs (%d entries, expected %d)" %
           (what, len(items), len(state)))
    backward = list(db.iterator(reverse=True))
    expect(backward == items[::-1], what + ": backward scan differs")
    for i in range(0, KEYS + 600, 7):
        got = db.get(key(i))
        expect(got == state.get(key(i)),
               "%s: get(%r) = %r, expected %r" %
               (what, key(i), got, state.get(key(i))))
    ranged = [k for k, _ in db.iterator(start=key(100), stop=key(200))]
    expect(ranged == sorted(k for k in state if key(100) <= k < key(200)),
           what + ": range scan differs")


def create(db):
    with db.write_batch() as batch:
        for k, v in first_state().items():
            batch.put(k, v)
    verify(db, first_state(), "create")


def change(db, db_dir, expected):
    verify(db, first_state(), "first state on the fork")
    snapshot = db.snapshot()
    with db.write_batch(transaction=True) as batch:
        for i in range(0, KEYS, 3):
            batch.delete(key(i))
    for i in range(KEYS, KEYS + 500):
        db.put(key(i), value(i, 2))
    for i in range(1, KEYS, 5):
        db.put(key(i), value(i, 3))
    expect(dict(snapshot.iterator()) == first_state(),
           "snapshot saw later writes")
    snapshot.close()
    db.compact_range()
    verify(db, second_state(), "second state")
    db.close()
    db = plyvel.DB(db_dir)
    check_library(expected, True, db)
    verify(db, second_state(), "second state after reopening")
    return db


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("create", "change", "reread"):
        fail("usage: plyvel_check.py create|change|reread DB_DIR LIBRARY")
    phase, db_dir, expected = sys.argv[1:]
    expect(os.path.isabs(expected), "LIBRARY must be an absolute path")
    db = plyvel.DB(db_dir, create_if_missing=(phase == "create"),
                   error_if_exists=(phase == "create"))
    check_library(expected, phase == "change", db)
    if phase == "create":
        create(db)
    elif phase == "change":
        db = change(db, db_dir, expected)
    else:
        verify(db, second_state(), "second state on Debian's library")
    db.close()
    print("plyvel_check %s: ok on %s" % (phase, expected))


if __name__ == "__main__":
    main()

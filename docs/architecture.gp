# ElasticBF in this fork: the picture of docs/elasticbf.md and
# docs/architecture.md. Render from the repository root:
#   gnuplot docs/architecture.gp      (writes docs/architecture.png)
# The left column is the Get path in order: the filter layer screens a table
# (segment locator, then the segment's loaded units) before the table is
# opened or its index block searched; a table not registered yet is opened
# and registered on the Get's thread first. RecordAccess comes from
# TableCache::Get after the screen ('no') or after the probe ('maybe').
set terminal pngcairo size 1300,820 font "DejaVu Sans,11" noenhanced
set output 'docs/architecture.png'
unset border; unset tics; unset key
set xrange [0:130]; set yrange [0:82]

# --- Get path (left), top to bottom ---
set object 1 rect from 2,72 to 33,80 fc rgb "#dde8f8" fs solid 1.0 border lc rgb "#333333"
set label 1 "1 DBImpl::Get (db/db_impl.cc)\nKeyHash64(user key) once;\nmemtable, then immutable memtable" at 17.5,78.3 center font ",9"
set arrow 1 from 17.5,72 to 17.5,70 lw 2
set object 2 rect from 2,62 to 33,70 fc rgb "#dde8f8" fs solid 1.0 border lc rgb "#333333"
set label 2 "2 Version::Get (db/version_set.cc)\ncandidate tables: level 0 newest\nfirst, then one table per level" at 17.5,68.3 center font ",9"
set arrow 2 from 17.5,62 to 17.5,60 lw 2
set object 3 rect from 2,42 to 33,60 fc rgb "#e8ffe8" fs solid 1.0 border lc rgb "#006600"
set label 3 "3 TableCache::Get -> FilterLayer::Screen\n  filter layer, per DB, keyed by file number\n  (elastic/filter_layer.cc); no file opened:\n  SegmentLocator::Find: key -> segment s\n  TableFilterGroups::MayMatch(s, hash):\n  AND of the loaded units of s\n'no': skip the table (not opened,\n   no index search, no I/O)\nnot registered yet: open it here,\n  which registers it and reads its\n  initial units; then screen again" at 3,58.3 left font ",9"
set arrow 3 from 17.5,42 to 17.5,40 lw 2
set label 4 "'maybe'" at 18.5,41 left font ",8"
set object 5 rect from 2,28 to 33,40 fc rgb "#dde8f8" fs solid 1.0 border lc rgb "#333333"
set label 5 "4 TableCache::FindTable: open the\n  table if closed (one read of its tail)\n5 ProbeTable (table/table.cc): index\n  search within segment s's entries\n  -> data block handle" at 3,38.3 left font ",9"
set arrow 5 from 17.5,28 to 17.5,26 lw 2
set object 6 rect from 2,16 to 33,26 fc rgb "#fde7d0" fs solid 1.0 border lc rgb "#333333"
set label 6 "6 read the data block\n(ReadBlock, table/format.cc; O_DIRECT)\n= 1 I/O; a false positive when\nthe key is not in it" at 17.5,24.3 center font ",9"
set label 7 "RecordAccess(s, absent), by\nTableCache::Get: at 'no' (absent)\nor after the probe; lock-free\nring, never blocks" at 34,64.5 left font ",9"
set arrow 7 from 33,58 to 62,58 lw 2 dt 2 lc rgb "#aa3300"
set arrow 8 from 33,34 to 62,42 lw 2 dt 2 lc rgb "#aa3300"

# --- table file (bottom) ---
set object 10 rect from 36,2 to 96,30 fc rgb "#f4f4f4" fs solid 1.0 border lc rgb "#333333"
set label 10 "table file (.ldb), a valid LevelDB 1.23 table" at 66,28 center font ",11"
set object 11 rect from 38,18 to 52,25 fc rgb "#e8f4e0" fs solid 1.0 border lc rgb "#333333"
set label 11 "segment 0\ndata blocks" at 45,21.5 center font ",9"
set object 12 rect from 53,18 to 67,25 fc rgb "#e8f4e0" fs solid 1.0 border lc rgb "#333333"
set label 12 "segment 1\ndata blocks" at 60,21.5 center font ",9"
set object 13 rect from 68,18 to 81,25 fc rgb "#e8f4e0" fs solid 1.0 border lc rgb "#333333"
set label 13 "segment 2 ..." at 74.5,21.5 center font ",9"
set object 14 rect from 38,10 to 59,16 fc rgb "#fff4c0" fs solid 1.0 border lc rgb "#333333"
set label 14 "unit 0 of seg 0,1,2,...\n(unit-0 region)" at 48.5,13 center font ",9"
set object 15 rect from 60,10 to 81,16 fc rgb "#fff4c0" fs solid 1.0 border lc rgb "#333333"
set label 15 "unit 1 of seg 0,1,2,...\n... up to unit n-1" at 70.5,13 center font ",9"
set object 16 rect from 82,10 to 95,25 fc rgb "#ffffff" fs solid 1.0 border lc rgb "#333333"
set label 16 "elasticbf.index,\nmetaindex, index,\nfooter (the tail)" at 88.5,17.5 center font ",9"
set label 17 "filter units: raw blocks + 5-byte trailer (CRC32C), stored unit-major" at 38,5 left font ",9"
set arrow 18 from 33,21 to 38,21 lw 2 lc rgb "#aa5500"

# --- MQSchedule and UnitManager (middle top) ---
set object 20 rect from 62,40 to 96,80 fc rgb "#eef0ff" fs solid 1.0 border lc rgb "#333333"
set label 20 "MQSchedule (per DB) + UnitManager (thread)" at 79,78 center font ",11"
set label 21 "MQSchedule's file registry: per file number,\nits filter groups and segment locator, from first\nopen until the file leaves the live set\n\nUnitManager: MultiQueue, Q_k = k units, LRU\nhotness per segment: absent probes f, accesses,\nlast access (logical clock = Gets), aged\nrule: give s one more unit if memory is free,\nor if expired segments (Qn..Q1, LRU end) give\none unit each and E[extra I/O] = sum f*r^k drops" at 63,74 left font ",9"
set label 22 "budget: memory_bits_per_key x live keys / 8\n(or memory_budget_bytes): locators first,\nthen units; bytes reserved before a load" at 63,46.3 left font ",9"

# --- memory (right top) ---
set object 30 rect from 100,46 to 128,80 fc rgb "#eaffea" fs solid 1.0 border lc rgb "#333333"
set label 30 "resident in RAM, per file\n\nsegment locator:\nlast index key of each segment\n\nloaded units:\nseg 0: u0 u1 u2 u3\nseg 1: u0\nseg 2: -\n\nreaders: epoch guard, no locks" at 114,77 center font ",9"
set arrow 31 from 96,58 to 100,58 lw 2
set label 32 "install /\nevict" at 96.3,54 left font ",8"
set arrow 33 from 100,48.7 to 33,48.7 lw 1.5 dt 3 lc rgb "#006600"
set label 34 "locator and units read by Screen" at 34,50 left font ",8" tc rgb "#006600"
set arrow 35 from 79,40 to 70,16 lw 2 lc rgb "#0044aa"
set label 36 "load unit u of s\n(one pread; a whole region\nwhen a table registers,\non the registering thread)" at 80,37 left font ",9"

# --- compaction ---
set object 40 rect from 100,2 to 128,34 fc rgb "#f8e8f8" fs solid 1.0 border lc rgb "#333333"
set label 40 "compaction / flush\nTableBuilder + FilterGroupBuilder:\nsegments cut at block\nboundaries, units built\non a thread pool;\nwith inherit_hotness (off\nby default), outputs inherit\ntheir share of the\ninputs' hotness\n(MANIFEST tags 100/101)" at 114,30 center font ",9"
set arrow 41 from 100,18 to 96,18 lw 2
plot NaN

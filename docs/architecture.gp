# ElasticBF in this fork: the picture of docs/architecture.md.
# Render: gnuplot docs/evaluation/architecture.gp (writes architecture.png
# next to this file; run from the repository root).
set terminal pngcairo size 1300,760 font "DejaVu Sans,11" noenhanced
set output 'docs/evaluation/architecture.png'
unset border; unset tics; unset key
set xrange [0:130]; set yrange [0:76]
set style rect fc rgb "#ffffff" fs solid 1.0 border lc rgb "#333333"

# --- Get path (left) ---
set object 1 rect from 2,62 to 30,72 fc rgb "#dde8f8"
set label 1 "DB::Get(key)\nmemtable, imm, then tables\nlevel by level (Version)" at 16,67 center
set object 2 rect from 2,38 to 31,59 fc rgb "#dde8f8"
set label 2 "Table::InternalGet\n1 index block (in memory):\n   key -> data block -> segment s\n2 MayMatch(s, hash64(key)):\n   AND of the loaded units of s\n3 'no' -> skip; 'maybe' -> read block" at 3,56 left
set arrow 1 from 16,62 to 16,59 lw 2
set object 3 rect from 2,22 to 30,34 fc rgb "#fde7d0"
set label 3 "data block read (pread, O_DIRECT)\n= 1 I/O; a false positive when\nthe key is not in it" at 16,28 center
set arrow 2 from 16,38 to 16,34 lw 2
set label 4 "RecordAccess(s, absent)\nlock-free ring, never blocks" at 33,41 left font ",10"
set arrow 3 from 31,46 to 62,46 lw 2 dt 2 lc rgb "#aa3300"

# --- table file (middle bottom) ---
set object 5 rect from 34,2 to 96,30 fc rgb "#f4f4f4"
set label 5 "table file (.ldb), a valid LevelDB 1.23 table" at 65,28 center font ",11"
set object 6 rect from 36,18 to 50,25 fc rgb "#e8f4e0"
set label 6 "segment 0\ndata blocks" at 43,21.5 center font ",9"
set object 7 rect from 51,18 to 65,25 fc rgb "#e8f4e0"
set label 7 "segment 1\ndata blocks" at 58,21.5 center font ",9"
set object 8 rect from 66,18 to 80,25 fc rgb "#e8f4e0"
set label 8 "segment 2 ..." at 73,21.5 center font ",9"
set object 9 rect from 36,10 to 58,16 fc rgb "#fff4c0"
set label 9 "unit 0 of seg 0,1,2,...\n(unit-0 region)" at 47,13 center font ",9"
set object 10 rect from 59,10 to 81,16 fc rgb "#fff4c0"
set label 10 "unit 1 of seg 0,1,2,...\n... up to unit n-1" at 70,13 center font ",9"
set object 11 rect from 82,10 to 95,25 fc rgb "#ffffff"
set label 11 "index, metaindex\n(elasticbf.index),\nfooter" at 88.5,17.5 center font ",9"
set label 12 "filter units: raw blocks + 5-byte trailer (CRC32C), stored unit-major" at 36,5 left font ",9"

# --- memory and MQSchedule (right) ---
set object 13 rect from 62,36 to 96,72 fc rgb "#eef0ff"
set label 13 "MQSchedule (one per DB, background thread)" at 79,70 center font ",11"
set label 14 "MultiQueue: Q_k = segments with k units, LRU order\nQ0 | Q1 | Q2 | ... | Qn\nhotness per segment: absent probes f, accesses,\nlast access (logical clock = Gets)\nrule: give s one more unit if memory is free,\nor if expired segments (Qn..Q1, LRU end) give\none unit each and E[extra I/O] = sum f*r^k drops" at 63,58 left font ",9"
set label 15 "budget: memory_bits_per_key x keys / 8\n(or memory_budget_bytes); reserve before load" at 63,40 left font ",9"
set object 16 rect from 100,40 to 128,72 fc rgb "#eaffea"
set label 16 "loaded units (RAM)\nseg 0: u0 u1 u2 u3\nseg 1: u0\nseg 2: -\nreaders: epoch guard,\nno locks" at 114,56 center font ",10"
set arrow 4 from 96,52 to 100,52 lw 2
set label 17 "install / evict\n(retire to epoch)" at 96.5,49 left font ",8"
set arrow 5 from 79,36 to 70,16 lw 2 lc rgb "#0044aa"
set label 18 "load unit u of s\n(one pread; a whole\nregion when a table opens)" at 80,33 left font ",9"
set arrow 6 from 114,40 to 31,50 lw 1 dt 3 lc rgb "#006600"
set label 19 "units consulted by MayMatch" at 72,41.5 left font ",8" tc rgb "#006600"

# --- compaction ---
set object 20 rect from 100,2 to 128,30 fc rgb "#f8e8f8"
set label 20 "compaction / flush\nTableBuilder + FilterGroupBuilder:\nsegments cut at block\nboundaries, units built\non a thread pool;\noutput segments inherit\ntheir share of the\ninputs' hotness\n(MANIFEST tags 100/101)" at 114,16 center font ",9"
set arrow 7 from 100,16 to 96,16 lw 2
plot NaN

// Stands in for YCSB-C's workload code: one object file in core/.
int FakeCoreWorkloadMarker() { return 1; }

//! SanitizerCoverage inline 8-bit counters (filled in by the coverage work).

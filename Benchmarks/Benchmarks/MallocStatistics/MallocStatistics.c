// Everything is in include/MallocStatistics.h (inline); SwiftPM needs one source file per C target.
#include "MallocStatistics.h"

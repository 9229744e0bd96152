// The bytes malloc has handed out and not had back, for W9 (bytes per live subscription).
// In C because Swift's Glibc module does not import <malloc.h>, where mallinfo2() is declared.
#pragma once

#include <stdlib.h>  // defines __GLIBC__ on glibc (stddef.h alone does not)

#if defined(__GLIBC__)
#include <malloc.h>
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#endif

/// glibc: mallinfo2().uordblks, over every arena (each chunk with its 8-byte header, rounded up
/// to 16 bytes). Darwin: size_in_use over every malloc zone. Elsewhere: 0.
static inline size_t receiver_malloced_bytes(void) {
#if defined(__GLIBC__)
    return mallinfo2().uordblks;
#elif defined(__APPLE__)
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return statistics.size_in_use;
#else
    return 0;
#endif
}

#ifndef NEXTUP_C_MEMORY_HINTS_H
#define NEXTUP_C_MEMORY_HINTS_H

/// Asks the processor to bring the cache line holding `address` into its
/// caches ahead of a read. A hint only: it never faults (any address will
/// do), never blocks, and changes nothing a program can observe but time.
static inline void nextup_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

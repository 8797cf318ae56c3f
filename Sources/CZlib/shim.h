// zlib, for the CRC-32 that checks every log line.
#ifndef NEXTUP_CZLIB_SHIM_H
#define NEXTUP_CZLIB_SHIM_H
#include <zlib.h>
#endif

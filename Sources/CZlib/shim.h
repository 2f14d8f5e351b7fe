// zlib's deflate and inflate, for matches.csv.gz (Debian: zlib1g-dev; pkg-config: zlib).
#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift does not import: these call them
// for a gzip wrapper (windowBits 15 + 16: RFC 1952 header and CRC-32/ISIZE trailer).
static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

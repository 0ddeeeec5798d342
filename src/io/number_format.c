/* Numbers as text without printf (number_format.h). */
#include "number_format.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if LDBL_MANT_DIG != 64
#error "number_format.c needs the x87 extended long double (64-bit significand, stored first)"
#endif

#define DIGITS 17 /* significant digits that identify every double */

/* 10^(16 a) for a = POW16_MIN .. POW16_MIN + 41, correctly rounded by the
 * compiler; with 10^b (b < 16, exact) they scale every finite double,
 * subnormals included, to 17 integer digits. */
#define POW16_MIN (-20)
static const long double pow16[] = {1e-320L, 1e-304L, 1e-288L, 1e-272L, 1e-256L, 1e-240L, 1e-224L,
                                    1e-208L, 1e-192L, 1e-176L, 1e-160L, 1e-144L, 1e-128L, 1e-112L,
                                    1e-96L,  1e-80L,  1e-64L,  1e-48L,  1e-32L,  1e-16L,  1e0L,
                                    1e16L,   1e32L,   1e48L,   1e64L,   1e80L,   1e96L,   1e112L,
                                    1e128L,  1e144L,  1e160L,  1e176L,  1e192L,  1e208L,  1e224L,
                                    1e240L,  1e256L,  1e272L,  1e288L,  1e304L,  1e320L,  1e336L};
static const long double pow1[16] = {1e0L, 1e1L, 1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,
                                     1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L};

static const char pairs[201] =
    "000102030405060708091011121314151617181920212223242526272829"
    "303132333435363738394041424344454647484950515253545556575859"
    "60616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* |x| 10^k in extended precision: three roundings of 2^-64 each. */
static long double scale(double x, int k)
{
    const int a = (k >= 0 ? k / 16 : -((15 - k) / 16));
    return (long double)fabs(x) * pow16[a - POW16_MIN] * pow1[k - 16 * a];
}

/* b with 2^b <= |x| < 2^(b+1), for finite nonzero x (subnormals too). */
static int binary_exponent(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    const int biased = (int)(u >> 52 & 0x7ff);
    if (biased) return biased - 1023;
    return -1023 - __builtin_clzll(u << 12); /* subnormal: its significand's top bit */
}

/* y (0 <= y < 2^63) rounded to the nearest integer, ties to even: adding
 * 2^63 leaves the integer part as the low bits of the 64-bit significand,
 * which x87 stores first. */
static uint64_t round_to_integer(long double y)
{
    const long double z = y + 0x1p63L;
    uint64_t significand;
    memcpy(&significand, &z, sizeof significand);
    return significand - (UINT64_C(1) << 63);
}

/* The 8 digits of v < 10^8 at out. */
static void write_8_digits(uint32_t v, char *out)
{
    const uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(out, pairs + 2 * (hi / 100), 2);
    memcpy(out + 2, pairs + 2 * (hi % 100), 2);
    memcpy(out + 4, pairs + 2 * (lo / 100), 2);
    memcpy(out + 6, pairs + 2 * (lo % 100), 2);
}

/* The 17 digits of n (10^16 <= n < 10^17) at out: 1 + 8 + 8, each half in
 * 32-bit arithmetic. */
static void write_digits(uint64_t n, char out[DIGITS])
{
    const uint64_t top = n / 100000000;
    write_8_digits((uint32_t)(n % 100000000), out + 9);
    write_8_digits((uint32_t)(top % 100000000), out + 1);
    out[0] = (char)('0' + top / 100000000);
}

/* Writes the exponent of the scientific form ("e-07", "e+300"). */
static int write_exponent(int e, char *buf)
{
    char *p = buf;
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    unsigned u = (unsigned)(e < 0 ? -e : e);
    if (u >= 100) *p++ = (char)('0' + u / 100), u %= 100;
    memcpy(p, pairs + 2 * u, 2);
    return (int)(p + 2 - buf);
}

/* Digits d[0..nd) times 10^e, e the exponent of d[0], as %g would: fixed
 * for -4 <= e < 17, else scientific. d holds 17 digits and 16 bytes of
 * padding; the copies have fixed sizes (cheaper than exact ones) and may
 * write past the returned length, within MCD_FORMAT_DOUBLE_BUFFER. */
static int place_point(const char *d, int nd, int e, char *buf)
{
    if (e < -4 || e >= DIGITS) {
        buf[0] = d[0];
        buf[1] = '.';
        memcpy(buf + 2, d + 1, DIGITS - 1);
        const int len = nd > 1 ? nd + 1 : 1;
        return len + write_exponent(e, buf + len);
    }
    if (e < 0) {
        memcpy(buf, "0.000", 5);
        memcpy(buf + 1 - e, d, DIGITS);
        return 1 - e + nd;
    }
    memcpy(buf, d, DIGITS);
    if (nd <= e + 1) return e + 1; /* an integer: the trailing digits are zeros */
    buf[e + 1] = '.';
    memcpy(buf + e + 2, d + e + 1, DIGITS - 1);
    return nd + 1;
}

int mcd_format_double(double x, char *buf)
{
    char *p = buf;
    if (signbit(x) && !isnan(x)) *p++ = '-';
    if (x == 0) return *p = '0', (int)(p + 1 - buf);
    if (isinf(x)) return memcpy(p, "inf", 3), (int)(p + 3 - buf);
    if (isnan(x)) return memcpy(buf, "nan", 3), 3;
    /* |x| in [2^b, 2^(b+1)): its decimal exponent e is floor(b log10 2) or one
     * more (78913 / 2^18 is log10 2 closely enough for |b| < 1650) */
    const int b = binary_exponent(x);
    int e = b * 78913 >> 18;
    long double y = scale(x, DIGITS - 1 - e);
    if (y >= 1e17L) y = scale(x, DIGITS - 1 - ++e);
    if (y < 1e16L) y = scale(x, DIGITS - 1 - --e);
    uint64_t n = round_to_integer(y);
    if (n >= 100000000000000000u) n = 10000000000000000u, e++;
    char d[2 * DIGITS - 1];
    write_digits(n, d);
    int nd = DIGITS;
    while (nd > 1 && d[nd - 1] == '0') nd--;
    return (int)(p - buf) + place_point(d, nd, e, p);
}

int mcd_format_long(long v, char *buf)
{
    char tmp[MCD_FORMAT_LONG_MAX];
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    int n = 0;
    do tmp[MCD_FORMAT_LONG_MAX - 1 - n++] = (char)('0' + u % 10);
    while (u /= 10);
    int len = 0;
    if (v < 0) buf[len++] = '-';
    memcpy(buf + len, tmp + MCD_FORMAT_LONG_MAX - n, (size_t)n);
    return len + n;
}

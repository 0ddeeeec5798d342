/* Private: numbers as text for the trajectory CSV, without printf.
 *
 * mcd_format_double writes a double with 17 significant digits, correctly
 * rounded except within about 2^-60 of a tie, trailing zeros dropped, in
 * the style of printf's %.17g ("0.25", "-1.0000000000000002", "1e-07",
 * "6.0221407599999997e+23"); 17 significant digits identify every double,
 * so strtod gives back the same bits. Zeros are "0" and "-0", infinities
 * "inf" and "-inf", every NaN "nan" (the spellings strtod reads). The
 * arithmetic is x87 extended precision (64-bit significand), whose error
 * (< 0.02 units of the 17th digit) keeps the printed value within half a
 * unit in the last place of x in every binade. */
#ifndef MCDYN_SRC_NUMBER_FORMAT_H
#define MCDYN_SRC_NUMBER_FORMAT_H

/* The longest text of a double (no terminating NUL), and the room
 * mcd_format_double needs: it may write scratch bytes past the text. */
#define MCD_FORMAT_DOUBLE_MAX    24
#define MCD_FORMAT_DOUBLE_BUFFER 40

/* Writes x at buf (at least MCD_FORMAT_DOUBLE_BUFFER bytes), no NUL;
 * returns the length of the text, at most MCD_FORMAT_DOUBLE_MAX. Bytes
 * after the text up to MCD_FORMAT_DOUBLE_BUFFER may be overwritten. */
int mcd_format_double(double x, char *buf);

/* Bytes mcd_format_long may write at most (no terminating NUL). */
#define MCD_FORMAT_LONG_MAX 20

/* Writes the decimal integer v at buf (at least MCD_FORMAT_LONG_MAX bytes),
 * no NUL; returns the number of bytes written. */
int mcd_format_long(long v, char *buf);

#endif

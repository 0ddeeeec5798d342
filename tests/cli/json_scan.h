/* A minimal JSON reader for checking the CLI's output: validation, the
 * members of the top-level object, and the numbers of (nested) arrays. */
#ifndef MCDYN_TESTS_JSON_SCAN_H
#define MCDYN_TESTS_JSON_SCAN_H

/* 1 if text is exactly one valid JSON value (surrounding whitespace allowed). */
int json_valid(const char *text);

/* The value of member key of the object that starts at obj (after any
 * whitespace), or NULL if absent. obj must be valid JSON. */
const char *json_member(const char *obj, const char *key);

/* The element at index of the array that starts at array, or NULL. */
const char *json_element(const char *array, int index);

/* Number of elements of the array at array (-1 if not an array). */
int json_length(const char *array);

/* Reads the numbers of the value at value in order, arrays flattened
 * (e.g. a matrix row by row), into v (capacity cap). Returns the count, or
 * -1 if the value holds something other than numbers and arrays or more
 * than cap numbers. */
int json_numbers(const char *value, double *v, int cap);

#endif

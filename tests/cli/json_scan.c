/* A minimal JSON reader (json_scan.h). */
#include "json_scan.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static const char *skip_value(const char *p);

/* After the opening quote; returns the position after the closing quote. */
static const char *skip_string(const char *p)
{
    for (; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\' && !*++p) return NULL;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *skip_number(const char *p)
{
    char *end;
    if (*p != '-' && (*p < '0' || *p > '9')) return NULL;
    strtod(p, &end);
    return end > p ? end : NULL;
}

/* After the opening bracket or brace; members are "key": value if object. */
static const char *skip_container(const char *p, char close, int object)
{
    p = skip_space(p);
    if (*p == close) return p + 1;
    for (;;) {
        if (object) {
            p = skip_space(p);
            if (*p != '"' || !(p = skip_string(p + 1))) return NULL;
            p = skip_space(p);
            if (*p++ != ':') return NULL;
        }
        if (!(p = skip_value(p))) return NULL;
        p = skip_space(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}

static const char *skip_literal(const char *p, const char *word)
{
    size_t n = strlen(word);
    return strncmp(p, word, n) ? NULL : p + n;
}

/* Returns the position after the value at p, or NULL if it is invalid. */
static const char *skip_value(const char *p)
{
    p = skip_space(p);
    switch (*p) {
    case '{':
        return skip_container(p + 1, '}', 1);
    case '[':
        return skip_container(p + 1, ']', 0);
    case '"':
        return skip_string(p + 1);
    case 't':
        return skip_literal(p, "true");
    case 'f':
        return skip_literal(p, "false");
    case 'n':
        return skip_literal(p, "null");
    default:
        return skip_number(p);
    }
}

int json_valid(const char *text)
{
    const char *end = skip_value(text);
    return end && *skip_space(end) == '\0';
}

const char *json_member(const char *obj, const char *key)
{
    const char *p = skip_space(obj);
    if (*p != '{') return NULL;
    p = skip_space(p + 1);
    size_t n = strlen(key);
    while (*p == '"') {
        const char *name = p + 1, *after = skip_string(name);
        p = skip_space(after) + 1; /* past ':' */
        if ((size_t)(after - 1 - name) == n && !strncmp(name, key, n)) return skip_space(p);
        p = skip_space(skip_value(p));
        if (*p == ',') p = skip_space(p + 1);
    }
    return NULL;
}

const char *json_element(const char *array, int index)
{
    const char *p = skip_space(array);
    if (*p != '[') return NULL;
    p = skip_space(p + 1);
    for (int i = 0; *p && *p != ']'; i++) {
        if (i == index) return p;
        p = skip_space(skip_value(p));
        if (*p == ',') p = skip_space(p + 1);
    }
    return NULL;
}

int json_length(const char *array)
{
    const char *p = skip_space(array);
    if (*p != '[') return -1;
    int n = 0;
    while (json_element(array, n)) n++;
    return n;
}

static int read_numbers(const char **pp, double *v, int cap, int n)
{
    const char *p = skip_space(*pp);
    if (*p != '[') {
        char *end;
        if (n >= cap || !skip_number(p)) return -1;
        v[n] = strtod(p, &end);
        *pp = end;
        return n + 1;
    }
    p = skip_space(p + 1);
    while (*p != ']') {
        if ((n = read_numbers(&p, v, cap, n)) < 0) return -1;
        p = skip_space(p);
        if (*p == ',')
            p++;
        else if (*p != ']')
            return -1;
    }
    *pp = p + 1;
    return n;
}

int json_numbers(const char *value, double *v, int cap)
{
    const char *p = value;
    return value ? read_numbers(&p, v, cap, 0) : -1;
}

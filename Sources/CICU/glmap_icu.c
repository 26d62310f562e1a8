// glmap's ICU calls (see include/glmap_icu.h): script codes, Arabic shaping, bidi reordering by
// line, case mapping. The only file that includes the system ICU headers.
#include "glmap_icu.h"

#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ucurr.h>
#include <unicode/unum.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ushape.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

void glmap_icu_script_code(uint32_t cp, char *out) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript((UChar32)cp, &status);
    const char *name = U_FAILURE(status) ? NULL : uscript_getShortName(script);
    if (!name) name = "Zzzz";
    strncpy(out, name, 7);
    out[7] = 0;
}

int glmap_icu_is_format_char(uint32_t cp) {
    return u_charType((UChar32)cp) == U_FORMAT_CHAR ? 1 : 0;
}

int32_t glmap_icu_shape_arabic(const uint16_t *src, int32_t length, uint16_t *dest, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = u_shapeArabic((const UChar *)src, length, (UChar *)dest, capacity,
                              U_SHAPE_LETTERS_SHAPE | U_SHAPE_TEXT_DIRECTION_LOGICAL, &status);
    if (U_FAILURE(status)) return -1;
    return n;
}

static int is_removed_control(UChar32 c) {
    return c == 0x061C || (c & 0xFFFFC) == 0x200C || (uint32_t)(c - 0x202A) < 5 || (uint32_t)(c - 0x2066) < 4;
}

int32_t glmap_icu_bidi_lines(const uint16_t *text, int32_t length, const int32_t *breaks, int32_t breakCount,
                             uint16_t *dest, int32_t *map, int32_t *lineEnds) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *para = ubidi_open();
    UBiDi *line = ubidi_open();
    int32_t result = -1;
    if (!para || !line) goto done;
    ubidi_setPara(para, (const UChar *)text, length, UBIDI_DEFAULT_LTR, NULL, &status);
    if (U_FAILURE(status)) goto done;

    // Line ends: the break points inside each paragraph, then the paragraph's end; then any break
    // past the last paragraph end (mapbox-gl-rtl-text's mergeParagraphLineBreakPoints).
    int32_t lineCount = 0;
    int32_t paragraphs = ubidi_countParagraphs(para);
    for (int32_t p = 0; p < paragraphs; p++) {
        int32_t paragraphEnd = 0;
        ubidi_getParagraphByIndex(para, p, NULL, &paragraphEnd, NULL, &status);
        if (U_FAILURE(status)) goto done;
        for (int32_t i = 0; i < breakCount; i++) {
            if (breaks[i] < paragraphEnd && (lineCount == 0 || breaks[i] > lineEnds[lineCount - 1])) lineEnds[lineCount++] = breaks[i];
        }
        lineEnds[lineCount++] = paragraphEnd;
    }
    for (int32_t i = 0; i < breakCount; i++) {
        if (lineCount == 0 || breaks[i] > lineEnds[lineCount - 1]) lineEnds[lineCount++] = breaks[i];
    }

    int32_t start = 0, out = 0;
    for (int32_t l = 0; l < lineCount; l++) {
        int32_t end = lineEnds[l];
        if (end > length) end = length;
        if (end < start) end = start;
        ubidi_setLine(para, start, end, line, &status);
        if (U_FAILURE(status)) goto done;
        int32_t runs = ubidi_countRuns(line, &status);
        if (U_FAILURE(status)) goto done;
        for (int32_t r = 0; r < runs; r++) {
            int32_t runStart = 0, runLength = 0;
            UBiDiDirection dir = ubidi_getVisualRun(line, r, &runStart, &runLength);
            runStart += start;
            if (dir == UBIDI_LTR) {
                for (int32_t i = runStart; i < runStart + runLength; i++) {
                    if (is_removed_control(text[i])) continue;
                    map[out] = i;
                    dest[out++] = text[i];
                }
            } else {
                int32_t i = runStart + runLength;
                while (i > runStart) {
                    UChar32 c;
                    U16_PREV(text, runStart, i, c);
                    if (is_removed_control(c)) continue;
                    UChar32 m = u_charMirror(c);
                    for (int32_t k = 0; k < U16_LENGTH(m); k++) map[out + k] = i + k;
                    U16_APPEND_UNSAFE(dest, out, m);
                }
            }
        }
        lineEnds[l] = out;
        start = end;
    }
    result = lineCount;
done:
    if (line) ubidi_close(line);
    if (para) ubidi_close(para);
    return result;
}

int32_t glmap_icu_case_map(const uint16_t *src, int32_t length, int upper, uint16_t *dest, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = upper ? u_strToUpper((UChar *)dest, capacity, (const UChar *)src, length, "", &status)
                      : u_strToLower((UChar *)dest, capacity, (const UChar *)src, length, "", &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return n;
    if (U_FAILURE(status)) return -1;
    return n;
}

static int to_uchars(const char *s, UChar *out, int cap) {
    int n = 0;
    while (s[n] && n < cap - 1) { out[n] = (UChar)(unsigned char)s[n]; n++; }
    out[n] = 0;
    return n;
}

int32_t glmap_icu_currency_digits(const char *currency) {
    UChar code[8];
    to_uchars(currency, code, 8);
    UErrorCode status = U_ZERO_ERROR;
    int32_t digits = ucurr_getDefaultFractionDigits(code, &status);
    return U_FAILURE(status) ? -1 : digits;
}

int32_t glmap_icu_format_number(double value, const char *locale, const char *currency, int32_t minFractionDigits,
                                int32_t maxFractionDigits, uint16_t *dest, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *fmt = unum_open(currency ? UNUM_CURRENCY : UNUM_DECIMAL, NULL, 0, locale, NULL, &status);
    if (U_FAILURE(status) || !fmt) return -1;
    if (currency) {
        UChar code[8];
        int n = to_uchars(currency, code, 8);
        unum_setTextAttribute(fmt, UNUM_CURRENCY_CODE, code, n, &status);
    }
    unum_setAttribute(fmt, UNUM_ROUNDING_MODE, UNUM_ROUND_HALFUP);
    unum_setAttribute(fmt, UNUM_GROUPING_USED, 1);
    if (minFractionDigits >= 0) unum_setAttribute(fmt, UNUM_MIN_FRACTION_DIGITS, minFractionDigits);
    if (maxFractionDigits >= 0) unum_setAttribute(fmt, UNUM_MAX_FRACTION_DIGITS, maxFractionDigits);
    int32_t n = unum_formatDouble(fmt, value, (UChar *)dest, capacity, NULL, &status);
    unum_close(fmt);
    if (U_FAILURE(status)) return -1;
    return n;
}

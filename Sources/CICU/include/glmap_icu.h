// glmap's window onto the system ICU (Debian libicu-dev): plain C types only, so Swift code that
// also imports Foundation (which carries its own, different ICU headers) never sees ICU's types.
#ifndef GLMAP_ICU_H
#define GLMAP_ICU_H
#include <stdint.h>

/// Writes the ISO 15924 code of cp's Script property (e.g. "Arab") into out (at least 8 bytes).
void glmap_icu_script_code(uint32_t cp, char *out);

/// 1 when cp's general category is Cf (format character), else 0.
int glmap_icu_is_format_char(uint32_t cp);

/// Arabic shaping (letters to presentation forms, logical order), as u_shapeArabic with
/// U_SHAPE_LETTERS_SHAPE | U_SHAPE_TEXT_DIRECTION_LOGICAL. Writes at most capacity code units to
/// dest and returns the shaped length, or -1 on failure (dest too small: call again larger).
int32_t glmap_icu_shape_arabic(const uint16_t *src, int32_t length, uint16_t *dest, int32_t capacity);

/// The Unicode bidirectional algorithm over UTF-16 text (paragraph level: first strong character,
/// LTR by default), split into lines at paragraph ends and at the ascending break offsets inside
/// each paragraph. Each line is written to dest in visual order: right-to-left runs reversed by
/// code point with mirrored characters, bidi controls (and ZWJ/ZWNJ) removed; map receives, per
/// written code unit, the logical index it came from; lineEnds the end offset in dest of each line.
/// dest and map need length entries, lineEnds length + breakCount + 1. Returns the line count,
/// or -1 when ICU fails.
int32_t glmap_icu_bidi_lines(const uint16_t *text, int32_t length, const int32_t *breaks, int32_t breakCount,
                             uint16_t *dest, int32_t *map, int32_t *lineEnds);

/// Upper-cases (upper != 0) or lower-cases UTF-16 text with the root locale's full case mapping.
/// Returns the length written (at most capacity), or the needed length when it does not fit,
/// or -1 on another failure.
int32_t glmap_icu_case_map(const uint16_t *src, int32_t length, int upper, uint16_t *dest, int32_t capacity);

/// A number formatted as Intl.NumberFormat formats it (the ICU underneath browsers): locale
/// (BCP 47, e.g. "en-US"; empty for the root locale), an ISO 4217 currency code or NULL for a
/// plain decimal, explicit fraction digit limits, grouping on, rounding half away from zero.
/// Writes at most capacity code units; returns the length, or -1 when ICU fails.
int32_t glmap_icu_format_number(double value, const char *locale, const char *currency, int32_t minFractionDigits,
                                int32_t maxFractionDigits, uint16_t *dest, int32_t capacity);

/// The default fraction digits of an ISO 4217 currency (2 for USD, 0 for JPY), or -1.
int32_t glmap_icu_currency_digits(const char *currency);

#endif

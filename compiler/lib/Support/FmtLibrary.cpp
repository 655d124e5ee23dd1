//===- FmtLibrary.cpp - fmt's compiled part, built once -------------------===//
// The compiler includes <fmt/format.h> without FMT_HEADER_ONLY, so its
// translation units only declare fmt's non-template functions; this file
// defines them once (format-inl.h) and instantiates what format.h declares
// `extern template`, as fmt 9's own src/format.cc does. Header-only fmt
// compiled all of format-inl.h into each of about 50 translation units
// (3.5 s of CPU each); the shared libfmt would be a run-time dependency of
// stencilc, which the Python package bundles alone.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template FMT_API locale_ref::locale_ref(const std::locale &loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char *, const char *);
template FMT_API void vformat_to(buffer<char> &, string_view,
                                 basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
template FMT_API void buffer<wchar_t>::append(const wchar_t *, const wchar_t *);

} // namespace detail
FMT_END_NAMESPACE

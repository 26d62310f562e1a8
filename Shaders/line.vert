#version 300 es
// Line: centre-line vertices with extrusion vectors (see LineVertex). Widths are applied here,
// so one tessellation serves every zoom. Semantics follow MapLibre's line shader: the geometry
// is widened by half a device pixel per side and the fragment fades over blur + 1 device pixel.
// Variants (a #define after the version line): DASH = MapLibre's line_sdf (line-dasharray from
// the signed-distance line atlas), GRADIENT = line_gradient (colour from the line-gradient ramp
// by line progress); both together = line_gradient_sdf; PATTERN = line_pattern (line-pattern:
// the image scaled to the floor width across the line, repeated along linesofar; alone). The fx
// attributes come from a second buffer (LineBucket.fxLayout), the pattern's from a third.
uniform mat4 u_matrix;            // tile units -> clip space
uniform float u_units_per_pixel;  // tile units per CSS pixel at this zoom
uniform float u_ratio;            // device pixels per CSS pixel
uniform vec2 u_units_to_pixels;   // clip -> CSS px half-extent (width/2, -height/2)
in vec2 a_pos;
in vec2 a_extrude;
in vec2 a_normal;
in float a_distance;
in float a_direction;
#pragma glmap: define vec4 color
#pragma glmap: define float opacity
#pragma glmap: define float width
#pragma glmap: define float gap_width
#pragma glmap: define float offset
#pragma glmap: define float blur
out vec2 v_normal;
flat out vec2 v_width2;
out float v_gamma_scale;
flat out vec4 v_color;
flat out float v_blur;
out float v_distance;
#if defined(DASH) || defined(GRADIENT) || defined(PATTERN)
in vec4 a_fx;                     // linesofar (tile units), floorwidth, progress in the piece, ramp row
#endif
#ifdef DASH
uniform float u_tileratio;        // CSS px per tile unit at the integer zoom
uniform float u_crossfade_from;   // scale of the cross-faded-from pattern
uniform float u_crossfade_to;     // scale of the cross-faded-to pattern
uniform float u_lineatlas_height; // rows in the line atlas
in vec3 a_dash_to;                // atlas row, rows across the line, pattern length (line widths)
in vec3 a_dash_from;
out vec2 v_tex_a;
out vec2 v_tex_b;
flat out float v_sdfgamma;
#endif
#ifdef GRADIENT
uniform float u_image_height;     // rows in the gradient ramp
out highp vec2 v_uv;
#endif
#ifdef PATTERN
in vec4 a_pattern_from;           // atlas pixels: top-left, bottom-right
in vec4 a_pattern_to;
in float a_pixel_ratio_from;
in float a_pixel_ratio_to;
flat out vec4 v_pattern_from;
flat out vec4 v_pattern_to;
flat out vec2 v_pattern_ratio;
out float v_linesofar;
flat out float v_floorwidth;
#endif
void main() {
    #pragma glmap: initialize vec4 color
    #pragma glmap: initialize float opacity
    #pragma glmap: initialize float width
    #pragma glmap: initialize float gap_width
    #pragma glmap: initialize float offset
    #pragma glmap: initialize float blur
    float ANTIALIASING = 1.0 / u_ratio / 2.0;
    float halfwidth = width / 2.0;
    float halfgap = gap_width / 2.0;
    float shift = -1.0 * offset;
    float inset = halfgap + (halfgap > 0.0 ? ANTIALIASING : 0.0);
    float outset = halfgap + halfwidth * (halfgap > 0.0 ? 2.0 : 1.0) + (halfwidth == 0.0 ? 0.0 : ANTIALIASING);
    vec2 dist = outset * a_extrude;
    float u = 0.5 * a_direction;
    float t = 1.0 - abs(u);
    vec2 offset2 = shift * a_extrude * a_normal.y * mat2(t, -u, u, t);
    vec4 projected_extrude = u_matrix * vec4(dist * u_units_per_pixel, 0.0, 0.0);
    gl_Position = u_matrix * vec4(a_pos + offset2 * u_units_per_pixel, 0.0, 1.0) + projected_extrude;
    float len_flat = length(dist);
    float len_persp = length(projected_extrude.xy / gl_Position.w * u_units_to_pixels);
    v_gamma_scale = len_persp > 0.0 ? len_flat / len_persp : 1.0;
    v_width2 = vec2(outset, inset);
    v_normal = a_normal;
#ifdef GRADIENT
    v_color = vec4(opacity);
    v_uv = vec2(a_fx.z, (a_fx.w + 0.5) / u_image_height);
#elif defined(PATTERN)
    v_color = vec4(opacity);
    v_pattern_from = a_pattern_from;
    v_pattern_to = a_pattern_to;
    v_pattern_ratio = vec2(a_pixel_ratio_from, a_pixel_ratio_to);
    v_linesofar = a_fx.x;
    v_floorwidth = a_fx.y;
#else
    v_color = color * opacity;
#endif
    v_blur = blur;
    v_distance = a_distance;
#ifdef DASH
    float floorwidth = a_fx.y;
    float scale_a = u_tileratio / (a_dash_from.z * u_crossfade_from) / floorwidth;
    float scale_b = u_tileratio / (a_dash_to.z * u_crossfade_to) / floorwidth;
    v_tex_a = vec2(a_fx.x * scale_a,
                   a_normal.y * (-a_dash_from.y / 2.0 / u_lineatlas_height) + (a_dash_from.x + 0.5) / u_lineatlas_height);
    v_tex_b = vec2(a_fx.x * scale_b,
                   a_normal.y * (-a_dash_to.y / 2.0 / u_lineatlas_height) + (a_dash_to.x + 0.5) / u_lineatlas_height);
    // sdfgamma = atlas width / (256 · pixel ratio · min(scaled pattern lengths)) / 2, over floorwidth.
    v_sdfgamma = (1.0 / u_ratio) / min(a_dash_from.z * u_crossfade_from, a_dash_to.z * u_crossfade_to) / 2.0 / floorwidth;
#endif
}

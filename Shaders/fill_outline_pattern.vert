#version 300 es
// Fill outline with fill-pattern (MapLibre's fill_outline_pattern): the same GL-line emulation as
// fill_outline (below), coloured by the pattern at the line's point (the end points' pattern
// positions interpolated along the edge) instead of the outline colour.
// Fill antialiasing outline, as MapLibre draws it: each ring edge as a 1-device-pixel GL line
// (WebGL's line width is 1 on the reference rasteriser) whose fragments fade with their distance
// to the edge: alpha = 1 - smoothstep(0, 1, d). DESIGN rule 4 forbids GL lines, so the edge is a
// triangle quad that reproduces the line rasterisation: a parallelogram half a pixel to each side
// of the edge along the minor axis, so exactly one pixel per row (y-major) or column (x-major) is
// covered, as the diamond-exit rule gives. The distance is MapLibre's: `length(v_pos −
// gl_FragCoord)` where v_pos is the edge's window position interpolated perspective-correctly
// along the GL line, so under pitch it lags behind the fragment along the edge. The fragment
// shader recomputes it from the two end points and their clip w; its own position comes from
// v_frag (x·w, y·w, w interpolated perspective-correctly, divided: linear in window space), not
// gl_FragCoord, so the tiled frames' shifted viewports and clip folds see the same pixels.
// Variants (#define): AFFINE when the matrix has no perspective on the ground (pitch 0: every
// clip w is the same), where the GL line's parameter is the plain projection and the distance is
// the fragment's distance to the edge's line, linear across the quad: one interpolated value
// instead of the end points, their w and the fragment's position (the same quad, the same
// coverage; the alpha agrees to rounding).
uniform mat4 u_matrix;
uniform vec2 u_viewport;        // device pixels
in vec2 a_start;
in vec2 a_end;
in float a_t;                   // 0 at the start, 1 at the end
in float a_side;                // -1 or +1
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform vec3 u_scale;           // tile units -> pattern pixels at the tile zoom, from scale, to scale
in vec4 a_pattern_from;         // atlas pixels: top-left, bottom-right
in vec4 a_pattern_to;
in float a_pixel_ratio_from;
in float a_pixel_ratio_to;
#pragma glmap: define float opacity
flat out vec4 v_color;
out vec2 v_pos_a;
out vec2 v_pos_b;
flat out vec4 v_pattern_from;
flat out vec4 v_pattern_to;

vec2 pattern_pos(vec2 size, float units_to_pixels, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (units_to_pixels * pos + offset) / size;
}
#ifdef AFFINE
out float v_dist;               // signed distance to the edge's line, device px
#else
flat out vec4 v_ends;           // start and end in device px from the frame's centre (NDC · viewport / 2)
out vec3 v_frag;                // this vertex in the same frame, times its clip w, and w
flat out vec2 v_end_w;          // clip w of start and end
#endif
void main() {
    #pragma glmap: initialize float opacity
    vec2 size_a = (a_pattern_from.zw - a_pattern_from.xy) / a_pixel_ratio_from;
    vec2 size_b = (a_pattern_to.zw - a_pattern_to.xy) / a_pixel_ratio_to;
    vec2 end_pos = a_t < 0.5 ? a_start : a_end;
    v_pos_a = pattern_pos(u_scale.y * size_a, u_scale.x, end_pos);
    v_pos_b = pattern_pos(u_scale.z * size_b, u_scale.x, end_pos);
    v_pattern_from = a_pattern_from;
    v_pattern_to = a_pattern_to;
    vec4 p = u_matrix * vec4(a_start, 0.0, 1.0);
    vec4 q = u_matrix * vec4(a_end, 0.0, 1.0);
    vec2 d = (q.xy / q.w - p.xy / p.w) * 0.5 * u_viewport;
    bool xMajor = abs(d.x) >= abs(d.y);
    vec2 offset = xMajor ? vec2(0.0, 0.5) : vec2(0.5, 0.0);
    vec4 pos = a_t < 0.5 ? p : q;
    pos.xy += offset * a_side * (2.0 / u_viewport) * pos.w;
    gl_Position = pos;
#ifdef AFFINE
    vec2 a = p.xy / p.w * 0.5 * u_viewport;
    vec2 ab = q.xy / q.w * 0.5 * u_viewport - a;
    vec2 v = pos.xy / pos.w * 0.5 * u_viewport - a;
    float len = length(ab);
    v_dist = len > 0.0 ? (ab.x * v.y - ab.y * v.x) / len : 0.0;
#else
    v_ends = vec4(p.xy / p.w * 0.5 * u_viewport, q.xy / q.w * 0.5 * u_viewport);
    v_frag = vec3(pos.xy * 0.5 * u_viewport, pos.w);
    v_end_w = vec2(p.w, q.w);
#endif
    v_color = vec4(opacity);
}

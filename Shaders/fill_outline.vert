#version 300 es
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
uniform mat4 u_matrix;
uniform vec2 u_viewport;        // device pixels
uniform vec2 u_clip_shift;      // fill-translate in bucket-local units (see fill.frag)
in vec2 a_start;
in vec2 a_end;
in float a_t;                   // 0 at the start, 1 at the end
in float a_side;                // -1 or +1
#pragma glmap: define vec4 outline_color
#pragma glmap: define float opacity
out vec4 v_color;
flat out vec4 v_ends;           // start and end in device px from the frame's centre (NDC · viewport / 2)
out vec3 v_frag;                // this vertex in the same frame, times its clip w, and w
flat out vec2 v_end_w;          // clip w of start and end
out vec2 v_clip_pos;            // the point on the edge, untranslated tile space (see fill.frag)
void main() {
    #pragma glmap: initialize vec4 outline_color
    #pragma glmap: initialize float opacity
    vec4 p = u_matrix * vec4(a_start, 0.0, 1.0);
    vec4 q = u_matrix * vec4(a_end, 0.0, 1.0);
    vec2 d = (q.xy / q.w - p.xy / p.w) * 0.5 * u_viewport;
    bool xMajor = abs(d.x) >= abs(d.y);
    vec2 offset = xMajor ? vec2(0.0, 0.5) : vec2(0.5, 0.0);
    vec4 pos = a_t < 0.5 ? p : q;
    v_clip_pos = (a_t < 0.5 ? a_start : a_end) + u_clip_shift;
    pos.xy += offset * a_side * (2.0 / u_viewport) * pos.w;
    gl_Position = pos;
    v_ends = vec4(p.xy / p.w * 0.5 * u_viewport, q.xy / q.w * 0.5 * u_viewport);
    v_frag = vec3(pos.xy * 0.5 * u_viewport, pos.w);
    v_end_w = vec2(p.w, q.w);
    v_color = outline_color * opacity;   // premultiplied
}

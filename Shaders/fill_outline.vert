#version 300 es
// Fill antialiasing outline: every ring edge is a quad one device pixel to each side of the edge,
// extruded in screen space (so pitch does not widen it). This replaces MapLibre's 2-px GL_LINES
// (DESIGN rule 4: no wide GL lines): the fragment fades with the distance to the edge exactly as
// MapLibre's fill_outline shader does, and edges are independent quads as GL_LINES segments are.
uniform mat4 u_matrix;
uniform vec2 u_viewport;        // device pixels
in vec2 a_start;
in vec2 a_end;
in float a_t;                   // 0 at the start, 1 at the end
in float a_side;                // -1 or +1
in vec4 a_color;                // premultiplied outline colour
in float a_opacity;
out vec4 v_color;
out float v_dist;               // signed distance from the edge, device pixels
void main() {
    vec4 p = u_matrix * vec4(a_start, 0.0, 1.0);
    vec4 q = u_matrix * vec4(a_end, 0.0, 1.0);
    vec2 d = (q.xy / q.w - p.xy / p.w) * u_viewport;
    float len = length(d);
    vec2 n = len > 0.0 ? vec2(-d.y, d.x) / len : vec2(0.0);
    vec4 pos = a_t < 0.5 ? p : q;
    pos.xy += n * a_side * (2.0 / u_viewport) * pos.w;
    gl_Position = pos;
    v_dist = a_side;
    v_color = a_color * a_opacity;
}

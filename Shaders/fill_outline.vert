#version 300 es
// Fill antialiasing outline: every ring edge is a quad one device pixel to each side of the edge,
// extruded in screen space (so pitch does not widen it). This replaces MapLibre's 2-px GL_LINES:
// the fragment fades with the distance to the edge exactly as MapLibre's fill_outline shader does.
uniform mat4 u_matrix;
uniform vec2 u_viewport;        // device pixels
in vec2 a_pos;                  // this end of the edge
in vec2 a_other;                // the other end
in float a_side;                // -1 or +1
in vec4 a_color;                // premultiplied outline colour
in float a_opacity;
out vec4 v_color;
out float v_dist;               // signed distance from the edge, device pixels
void main() {
    vec4 p = u_matrix * vec4(a_pos, 0.0, 1.0);
    vec4 q = u_matrix * vec4(a_other, 0.0, 1.0);
    vec2 ps = p.xy / p.w * u_viewport * 0.5;
    vec2 qs = q.xy / q.w * u_viewport * 0.5;
    vec2 d = qs - ps;
    float len = length(d);
    vec2 n = len > 0.0 ? vec2(-d.y, d.x) / len : vec2(0.0);
    p.xy += n * a_side * (2.0 / u_viewport) * p.w;
    gl_Position = p;
    v_dist = a_side;
    v_color = a_color * a_opacity;
}

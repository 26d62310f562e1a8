#version 300 es
// Fill: earcut triangles in bucket-local units; colour and opacity per vertex (data-driven).
uniform mat4 u_matrix;          // bucket-local units -> clip space (translate already applied)
in vec2 a_pos;
in vec4 a_color;                // premultiplied
in float a_opacity;
out vec4 v_color;
void main() {
    v_color = a_color * a_opacity;
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}

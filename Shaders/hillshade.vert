#version 300 es
// Hillshade: one tile's square as a strip from gl_VertexID; v_pos samples its prepared slopes.
uniform mat4 u_matrix;
out vec2 v_pos;
void main() {
    vec2 f = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    gl_Position = u_matrix * vec4(f * 8192.0, 0.0, 1.0);
    v_pos = f;
}

#version 300 es
// Color relief: one tile's square as a strip from gl_VertexID; v_pos is the matching position in
// the padded (dim + 2)² DEM texture (u_dimension), as GL JS's color_relief.vertex maps it.
uniform mat4 u_matrix;
uniform vec2 u_dimension;
out vec2 v_pos;
void main() {
    vec2 f = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    gl_Position = u_matrix * vec4(f * 8192.0, 0.0, 1.0);
    highp vec2 epsilon = 1.0 / u_dimension;
    float scale = (u_dimension.x - 2.0) / u_dimension.x;
    v_pos = f * scale + epsilon;
}

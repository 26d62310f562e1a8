#version 300 es
// Hillshade prepare: the whole dim × dim slopes framebuffer as a strip from gl_VertexID; v_pos
// is the matching position in the padded (dim + 2)² DEM texture (u_dimension), so each fragment
// reads its own DEM pixel's centre (GL JS's hillshade_prepare.vertex; row 0 is the DEM's top).
uniform vec2 u_dimension;
out vec2 v_pos;
void main() {
    vec2 f = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    gl_Position = vec4(f * 2.0 - 1.0, 0.0, 1.0);
    highp vec2 epsilon = 1.0 / u_dimension;
    float scale = (u_dimension.x - 2.0) / u_dimension.x;
    v_pos = f * scale + epsilon;
}

#version 300 es
// Tile clipping mask: the tile's square [0, 8192]² in tile units, as a strip of two triangles
// from gl_VertexID, written only into the stencil buffer (MapLibre's clipping mask).
uniform mat4 u_matrix;
void main() {
    vec2 p = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1)) * 8192.0;
    gl_Position = u_matrix * vec4(p, 0.0, 1.0);
}

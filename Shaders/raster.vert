#version 300 es
// Raster: one tile's picture (or an image source's picture on its four corners) as a strip of
// two triangles from gl_VertexID, split top-right → bottom-left as GL JS's quad; the corners are
// in tile units (u_coords_top: top left, top right; u_coords_bottom: bottom left, bottom right).
uniform mat4 u_matrix;
uniform vec4 u_coords_top;
uniform vec4 u_coords_bottom;
out vec2 v_pos0;
void main() {
    vec2 f = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 position = mix(mix(u_coords_top.xy, u_coords_top.zw, f.x), mix(u_coords_bottom.xy, u_coords_bottom.zw, f.x), f.y);
    gl_Position = u_matrix * vec4(position, 0.0, 1.0);
    v_pos0 = f;
}

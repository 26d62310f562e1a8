#version 300 es
// Background: one triangle covering the viewport, or, when the view sees past the world's north
// or south edge (WorldBand), the convex polygon of the part that shows the world, drawn as a
// fan of u_count − 2 triangles from its vertices (clip space, already folded for tiled frames).
uniform int u_count;
uniform vec2 u_polygon[8];
void main() {
    if (u_count < 3) {
        vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
        gl_Position = vec4(p, 0.0, 1.0);
    } else {
        int corner = gl_VertexID % 3;
        int i = corner == 0 ? 0 : gl_VertexID / 3 + corner;
        gl_Position = vec4(u_polygon[i], 0.0, 1.0);
    }
}

#version 300 es
// Heatmap colour pass (MapLibre's heatmap_texture): one quad over the whole frame (corners from
// gl_VertexID, a triangle strip), folded like every matrix when the frame is drawn in tiles.
uniform vec4 u_fold;            // clip-space scale (x, y) and translate (z, w) of tiled frames
out vec2 v_pos;                 // 0…1 over the frame, y up (the density texture's orientation)
#pragma glmap: define float opacity
flat out float v_opacity;
void main() {
    #pragma glmap: initialize float opacity
    vec2 corner = vec2(float(gl_VertexID % 2), float(gl_VertexID / 2)) * 2.0 - 1.0;
    v_pos = corner * 0.5 + 0.5;
    gl_Position = vec4(u_fold.x * corner.x + u_fold.z, u_fold.y * corner.y + u_fold.w, 0.0, 1.0);
    v_opacity = opacity;
}

#version 300 es
// Background with background-pattern (MapLibre's background_pattern): drawn over each tile
// covering the view (the square from gl_VertexID, tile units), the pattern anchored at the tile's
// origin in pattern pixels at the frame's tile zoom, so it is continuous across tiles.
uniform mat4 u_matrix;            // tile units -> clip space
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform vec3 u_scale;             // tile units -> pattern pixels at the tile zoom, from scale, to scale
uniform vec4 u_pattern_from;      // atlas pixels: top-left, bottom-right
uniform vec4 u_pattern_to;
uniform vec2 u_pixel_ratio;       // from, to
out vec2 v_pos_a;
out vec2 v_pos_b;

vec2 pattern_pos(vec2 size, float units_to_pixels, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (units_to_pixels * pos + offset) / size;
}

void main() {
    vec2 pos = vec2(float(gl_VertexID % 2), float(gl_VertexID / 2)) * 8192.0;
    vec2 size_a = (u_pattern_from.zw - u_pattern_from.xy) / u_pixel_ratio.x;
    vec2 size_b = (u_pattern_to.zw - u_pattern_to.xy) / u_pixel_ratio.y;
    gl_Position = u_matrix * vec4(pos, 0.0, 1.0);
    v_pos_a = pattern_pos(u_scale.y * size_a, u_scale.x, pos);
    v_pos_b = pattern_pos(u_scale.z * size_b, u_scale.x, pos);
}

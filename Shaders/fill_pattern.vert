#version 300 es
// Fill with fill-pattern (MapLibre's fill_pattern): earcut triangles in tile units; each vertex's
// position in pattern repeats, anchored at the tile's origin in pattern pixels at the frame's tile
// zoom (u_pixel_coord_*), so the pattern is continuous across tiles and steps with integer zooms.
uniform mat4 u_matrix;            // tile units -> clip space (fill-translate already applied)
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform vec3 u_scale;             // tile units -> pattern pixels at the tile zoom, from scale, to scale
in vec2 a_pos;
in vec4 a_pattern_from;           // atlas pixels: top-left, bottom-right
in vec4 a_pattern_to;
in float a_pixel_ratio_from;
in float a_pixel_ratio_to;
#pragma glmap: define float opacity
out vec2 v_pos_a;
out vec2 v_pos_b;
flat out vec4 v_pattern_from;
flat out vec4 v_pattern_to;
flat out float v_opacity;

vec2 pattern_pos(vec2 size, float units_to_pixels, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (units_to_pixels * pos + offset) / size;
}

void main() {
    #pragma glmap: initialize float opacity
    vec2 size_a = (a_pattern_from.zw - a_pattern_from.xy) / a_pixel_ratio_from;
    vec2 size_b = (a_pattern_to.zw - a_pattern_to.xy) / a_pixel_ratio_to;
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos_a = pattern_pos(u_scale.y * size_a, u_scale.x, a_pos);
    v_pos_b = pattern_pos(u_scale.z * size_b, u_scale.x, a_pos);
    v_pattern_from = a_pattern_from;
    v_pattern_to = a_pattern_to;
    v_opacity = opacity;
}

#version 300 es
// Fill extrusion with fill-extrusion-pattern (MapLibre's fill_extrusion_pattern): roofs take the
// pattern in tile space as fills do; walls take it along the ring (edge distance) and up the wall
// (height × u_height_factor), so it wraps around the building. Lighting as MapLibre's pattern
// variant computes it (no surface colour: the pattern is the colour).
uniform mat4 u_matrix;
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform float u_height_factor;
uniform vec3 u_scale;             // tile units → pixels at the tile zoom, from scale, to scale
uniform float u_vertical_gradient;
uniform vec3 u_lightcolor;
uniform vec3 u_lightpos;
uniform float u_lightintensity;
in vec2 a_pos;
in vec4 a_normal_ed;
in vec4 a_pattern_from;           // atlas pixels: top-left, bottom-right
in vec4 a_pattern_to;
in float a_pixel_ratio_from;
in float a_pixel_ratio_to;
#pragma glmap: define float opacity
#pragma glmap: define float height
#pragma glmap: define float base
out vec2 v_pos_a;
out vec2 v_pos_b;
out vec4 v_lighting;
flat out vec4 v_pattern_from;
flat out vec4 v_pattern_to;

vec2 pattern_pos(vec2 size, float units_to_pixels, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (units_to_pixels * pos + offset) / size;
}

void main() {
    #pragma glmap: initialize float opacity
    #pragma glmap: initialize float height
    #pragma glmap: initialize float base
    vec3 normal = a_normal_ed.xyz;
    float edgedistance = a_normal_ed.w;
    vec2 size_a = (a_pattern_from.zw - a_pattern_from.xy) / a_pixel_ratio_from;
    vec2 size_b = (a_pattern_to.zw - a_pattern_to.xy) / a_pixel_ratio_to;
    base = max(0.0, base);
    height = max(0.0, height);
    float t = mod(normal.x, 2.0);
    float z = t > 0.0 ? height : base;
    gl_Position = u_matrix * vec4(a_pos, z, 1.0);
    bool roof = normal.x == 1.0 && normal.y == 0.0 && normal.z == 16384.0;
    vec2 pos = roof ? a_pos : vec2(edgedistance, z * u_height_factor);
    v_pos_a = pattern_pos(u_scale.y * size_a, u_scale.x, pos);
    v_pos_b = pattern_pos(u_scale.z * size_b, u_scale.x, pos);
    v_pattern_from = a_pattern_from;
    v_pattern_to = a_pattern_to;
    v_lighting = vec4(0.0, 0.0, 0.0, 1.0);
    float directional = clamp(dot(normal / 16383.0, u_lightpos), 0.0, 1.0);
    directional = mix(1.0 - u_lightintensity, max(0.5 + u_lightintensity, 1.0), directional);
    if (normal.y != 0.0) {
        directional *= (1.0 - u_vertical_gradient)
            + u_vertical_gradient * clamp((t + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
    }
    v_lighting.rgb += clamp(directional * u_lightcolor, mix(vec3(0.0), vec3(0.3), 1.0 - u_lightcolor), vec3(1.0));
    v_lighting *= opacity;
}

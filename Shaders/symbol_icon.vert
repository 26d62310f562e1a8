#version 300 es
// Raster icons: MapLibre's symbol_icon vertex stage (as symbol_sdf, plus the fixed-size pixel
// offsets of stretchable icons and their smallest font scale).
uniform mat4 u_matrix;
uniform mat4 u_label_plane_matrix;
uniform mat4 u_coord_matrix;
uniform mat4 u_fold;
uniform bool u_is_size_zoom_constant;
uniform bool u_is_size_feature_constant;
uniform highp float u_size_t;
uniform highp float u_size;
uniform bool u_is_text;
uniform bool u_pitch_with_map;
uniform bool u_is_along_line;
uniform bool u_is_variable_anchor;
uniform bool u_rotate_symbol;
uniform highp float u_aspect_ratio;
uniform highp float u_camera_to_center_distance;
uniform vec2 u_texsize;
uniform vec2 u_translation;
in vec4 a_pos_offset;
in vec4 a_data;
in vec4 a_pixeloffset;
in vec3 a_projected_pos;
in float a_fade_opacity;
#pragma glmap: define float opacity
out vec2 v_tex;
out float v_fade_opacity;
flat out float v_opacity;
void main() {
    #pragma glmap: initialize float opacity
    vec2 a_pos = a_pos_offset.xy;
    vec2 a_offset = a_pos_offset.zw;
    vec2 a_tex = a_data.xy;
    vec2 a_size = a_data.zw;
    float a_size_min = floor(a_size[0] * 0.5);
    vec2 a_pxoffset = a_pixeloffset.xy;
    vec2 a_minFontScale = a_pixeloffset.zw / 256.0;
    highp float segment_angle = -a_projected_pos[2];
    float size;
    if (!u_is_size_zoom_constant && !u_is_size_feature_constant) {
        size = mix(a_size_min, a_size[1], u_size_t) / 128.0;
    } else if (u_is_size_zoom_constant && !u_is_size_feature_constant) {
        size = a_size_min / 128.0;
    } else {
        size = u_size;
    }
    vec2 translated_a_pos = a_pos + u_translation;
    vec4 projectedPoint = u_matrix * vec4(translated_a_pos, 0.0, 1.0);
    highp float camera_to_anchor_distance = projectedPoint.w;
    highp float distance_ratio = u_pitch_with_map ?
        camera_to_anchor_distance / u_camera_to_center_distance :
        u_camera_to_center_distance / camera_to_anchor_distance;
    highp float perspective_ratio = clamp(0.5 + 0.5 * distance_ratio, 0.0, 4.0);
    size *= perspective_ratio;
    float fontScale = u_is_text ? size / 24.0 : size;
    highp float symbol_rotation = 0.0;
    if (u_rotate_symbol) {
        vec4 offsetProjectedPoint = u_matrix * vec4(translated_a_pos + vec2(1, 0), 0.0, 1.0);
        vec2 a = projectedPoint.xy / projectedPoint.w;
        vec2 b = offsetProjectedPoint.xy / offsetProjectedPoint.w;
        symbol_rotation = atan((b.y - a.y) / u_aspect_ratio, b.x - a.x);
    }
    highp float angle_sin = sin(segment_angle + symbol_rotation);
    highp float angle_cos = cos(segment_angle + symbol_rotation);
    mat2 rotation_matrix = mat2(angle_cos, -1.0 * angle_sin, angle_sin, angle_cos);
    vec4 projected_pos;
    if (u_is_along_line || u_is_variable_anchor) {
        projected_pos = vec4(a_projected_pos.xy, 0.0, 1.0);
    } else if (u_pitch_with_map) {
        projected_pos = u_label_plane_matrix * vec4(a_projected_pos.xy + u_translation, 0.0, 1.0);
    } else {
        projected_pos = u_label_plane_matrix * (u_matrix * vec4(a_projected_pos.xy + u_translation, 0.0, 1.0));
    }
    float z = float(u_pitch_with_map) * projected_pos.z / projected_pos.w;
    vec4 finalPos = u_coord_matrix * vec4(projected_pos.xy / projected_pos.w + rotation_matrix * (a_offset / 32.0 * max(a_minFontScale, fontScale) + a_pxoffset / 16.0), z, 1.0);
    if (u_pitch_with_map) {
        finalPos = u_matrix * vec4(finalPos.xy, finalPos.z, 1.0);
    }
    gl_Position = u_fold * finalPos;
    v_tex = a_tex / u_texsize;
    v_fade_opacity = a_fade_opacity;
    v_opacity = opacity;
}

#version 300 es
// Circle: one quad (four vertices) per point; it covers radius + stroke (the antialiasing and blur
// fade inward from that edge, as in MapLibre).
uniform mat4 u_matrix;
uniform bool u_scale_with_map;    // circle-pitch-scale == map
uniform bool u_pitch_with_map;    // circle-pitch-alignment == map
uniform vec2 u_extrude_scale;     // map: bucket units per CSS px; viewport: clip units per CSS px
uniform float u_camera_to_center_distance;
uniform float u_ratio;
in vec2 a_corner;                 // (-1,-1) (1,-1) (-1,1) (1,1)
in vec2 a_center;                 // the point, on each of its four vertices
#pragma glmap: define float radius
#pragma glmap: define vec4 color
#pragma glmap: define float blur
#pragma glmap: define float opacity
#pragma glmap: define float stroke_width
#pragma glmap: define vec4 stroke_color
#pragma glmap: define float stroke_opacity
out vec3 v_data;
flat out vec4 v_color;
flat out vec4 v_stroke_color;
flat out float v_radius;
flat out float v_stroke_width;
flat out float v_blur;
void main() {
    #pragma glmap: initialize float radius
    #pragma glmap: initialize vec4 color
    #pragma glmap: initialize float blur
    #pragma glmap: initialize float opacity
    #pragma glmap: initialize float stroke_width
    #pragma glmap: initialize vec4 stroke_color
    #pragma glmap: initialize float stroke_opacity
    float size = radius + stroke_width;
    if (u_pitch_with_map) {
        vec2 corner_position = a_center;
        if (u_scale_with_map) {
            corner_position += a_corner * size * u_extrude_scale;
        } else {
            vec4 projected_center = u_matrix * vec4(a_center, 0.0, 1.0);
            corner_position += a_corner * size * u_extrude_scale * (projected_center.w / u_camera_to_center_distance);
        }
        gl_Position = u_matrix * vec4(corner_position, 0.0, 1.0);
    } else {
        gl_Position = u_matrix * vec4(a_center, 0.0, 1.0);
        if (u_scale_with_map) {
            gl_Position.xy += a_corner * size * u_extrude_scale * u_camera_to_center_distance;
        } else {
            gl_Position.xy += a_corner * size * u_extrude_scale * gl_Position.w;
        }
    }
    float antialiasblur = 1.0 / u_ratio / max(size, 1e-6);
    v_data = vec3(a_corner, antialiasblur);
    v_color = color * opacity;
    v_stroke_color = stroke_color * stroke_opacity;
    v_radius = radius;
    v_stroke_width = stroke_width;
    v_blur = blur;
}

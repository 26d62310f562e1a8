#version 300 es
// Line: centre-line vertices with extrusion vectors (see LineVertex). Widths are applied here,
// so one tessellation serves every zoom. Semantics follow MapLibre's line shader: the geometry
// is widened by half a device pixel per side and the fragment fades over blur + 1 device pixel.
uniform mat4 u_matrix;            // bucket-local units -> clip space
uniform float u_units_per_pixel;  // bucket-local units per CSS pixel at this zoom
uniform float u_ratio;            // device pixels per CSS pixel
uniform vec2 u_units_to_pixels;   // clip -> CSS px half-extent (width/2, -height/2)
in vec2 a_pos;
in vec2 a_extrude;
in vec2 a_normal;
in float a_distance;
in float a_direction;
in vec4 a_color;                  // premultiplied
in float a_opacity;
in float a_width;
in float a_gapwidth;
in float a_offset;
in float a_blur;
out vec2 v_normal;
out vec2 v_width2;
out float v_gamma_scale;
out vec4 v_color;
out float v_blur;
out float v_distance;
void main() {
    float ANTIALIASING = 1.0 / u_ratio / 2.0;
    float halfwidth = a_width / 2.0;
    float gapwidth = a_gapwidth / 2.0;
    float offset = -1.0 * a_offset;
    float inset = gapwidth + (gapwidth > 0.0 ? ANTIALIASING : 0.0);
    float outset = gapwidth + halfwidth * (gapwidth > 0.0 ? 2.0 : 1.0) + (halfwidth == 0.0 ? 0.0 : ANTIALIASING);
    vec2 dist = outset * a_extrude;
    float u = 0.5 * a_direction;
    float t = 1.0 - abs(u);
    vec2 offset2 = offset * a_extrude * a_normal.y * mat2(t, -u, u, t);
    vec4 projected_extrude = u_matrix * vec4(dist * u_units_per_pixel, 0.0, 0.0);
    gl_Position = u_matrix * vec4(a_pos + offset2 * u_units_per_pixel, 0.0, 1.0) + projected_extrude;
    float len_flat = length(dist);
    float len_persp = length(projected_extrude.xy / gl_Position.w * u_units_to_pixels);
    v_gamma_scale = len_persp > 0.0 ? len_flat / len_persp : 1.0;
    v_width2 = vec2(outset, inset);
    v_normal = a_normal;
    v_color = a_color * a_opacity;
    v_blur = a_blur;
    v_distance = a_distance;
}

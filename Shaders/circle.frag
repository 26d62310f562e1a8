#version 300 es
precision highp float;
in vec3 v_data;
flat in vec4 v_color;
flat in vec4 v_stroke_color;
flat in float v_radius;
flat in float v_stroke_width;
flat in float v_blur;
out vec4 fragColor;
// smoothstep that also accepts edge0 > edge1 (GLSL leaves that undefined).
float ramp(float e0, float e1, float x) {
    float t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}
void main() {
    float extrude_length = length(v_data.xy);
    float antialiased_blur = -max(v_blur, v_data.z);
    float opacity_t = ramp(0.0, antialiased_blur, extrude_length - 1.0);
    float color_t = v_stroke_width < 0.01 ? 0.0 :
        ramp(antialiased_blur, 0.0, extrude_length - v_radius / (v_radius + v_stroke_width));
    fragColor = opacity_t * mix(v_color, v_stroke_color, color_t);
}

#version 300 es
precision highp float;
// The density (LINEAR from the quarter-size texture) looked up in the heatmap-color ramp.
uniform sampler2D u_image;
uniform sampler2D u_color_ramp;
in vec2 v_pos;
flat in float v_opacity;
out vec4 fragColor;
void main() {
    float t = texture(u_image, v_pos).r;
    fragColor = texture(u_color_ramp, vec2(t, 0.5)) * v_opacity;
}

#version 300 es
precision highp float;
// The pattern images from the atlas (LINEAR, clamped; 1-pixel wrapped borders), cross-faded by
// u_fade (1 on a still frame), times the opacity.
uniform vec2 u_texsize;
uniform float u_fade;
uniform sampler2D u_image;
in vec2 v_pos_a;
in vec2 v_pos_b;
flat in vec4 v_pattern_from;
flat in vec4 v_pattern_to;
flat in float v_opacity;
out vec4 fragColor;
void main() {
    vec4 color1 = texture(u_image, mix(v_pattern_from.xy / u_texsize, v_pattern_from.zw / u_texsize, mod(v_pos_a, 1.0)));
    vec4 color2 = texture(u_image, mix(v_pattern_to.xy / u_texsize, v_pattern_to.zw / u_texsize, mod(v_pos_b, 1.0)));
    fragColor = mix(color1, color2, u_fade) * v_opacity;
}

#version 300 es
precision highp float;
// The pattern images from the atlas (LINEAR, clamped), cross-faded by u_fade, times the opacity.
uniform vec2 u_texsize;
uniform float u_fade;
uniform float u_opacity;
uniform sampler2D u_image;
uniform vec4 u_pattern_from;
uniform vec4 u_pattern_to;
in vec2 v_pos_a;
in vec2 v_pos_b;
out vec4 fragColor;
void main() {
    vec4 color1 = texture(u_image, mix(u_pattern_from.xy / u_texsize, u_pattern_from.zw / u_texsize, mod(v_pos_a, 1.0)));
    vec4 color2 = texture(u_image, mix(u_pattern_to.xy / u_texsize, u_pattern_to.zw / u_texsize, mod(v_pos_b, 1.0)));
    fragColor = mix(color1, color2, u_fade) * u_opacity;
}

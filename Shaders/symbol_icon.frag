#version 300 es
// Raster icons: the premultiplied atlas times opacity.
precision highp float;
uniform sampler2D u_texture;
in vec2 v_tex;
in float v_fade_opacity;
flat in float v_opacity;
out vec4 fragColor;
void main() {
    fragColor = texture(u_texture, v_tex) * (v_opacity * v_fade_opacity);
}

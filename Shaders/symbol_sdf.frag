#version 300 es
// MapLibre's symbol_sdf fragment stage: the distance field sampled bilinearly and cut at 0.75
// (192/256) with a smoothstep of ±gamma (0.105 / pixel ratio over the font scale); the halo pass
// cuts further out by halo-width, blurred by halo-blur, and leaves the glyph's inside empty.
precision highp float;
#define SDF_PX 8.0
uniform bool u_is_halo;
uniform sampler2D u_texture;
uniform highp float u_gamma_scale;
uniform lowp float u_device_pixel_ratio;
uniform bool u_is_text;
in vec2 v_tex;
in vec3 v_data1;
flat in vec4 v_color;
flat in vec4 v_halo_color;
flat in float v_opacity;
flat in float v_halo_width;
flat in float v_halo_blur;
out vec4 fragColor;
void main() {
    float EDGE_GAMMA = 0.105 / u_device_pixel_ratio;
    float gamma_scale = v_data1.x;
    float size = v_data1.y;
    float fade_opacity = v_data1[2];
    float fontScale = u_is_text ? size / 24.0 : size;
    vec4 color = v_color;
    highp float gamma = EDGE_GAMMA / (fontScale * u_gamma_scale);
    float inner_edge = (256.0 - 64.0) / 256.0;
    if (u_is_halo) {
        color = v_halo_color;
        gamma = (v_halo_blur * 1.19 / SDF_PX + EDGE_GAMMA) / (fontScale * u_gamma_scale);
        inner_edge = inner_edge + gamma * gamma_scale;
    }
    float dist = texture(u_texture, v_tex).a;
    highp float gamma_scaled = gamma * gamma_scale;
    highp float alpha = smoothstep(inner_edge - gamma_scaled, inner_edge + gamma_scaled, dist);
    if (u_is_halo) {
        float halo_edge = (6.0 - v_halo_width / fontScale) / SDF_PX;
        alpha = min(smoothstep(halo_edge - gamma_scaled, halo_edge + gamma_scaled, dist), 1.0 - alpha);
    }
    fragColor = color * (alpha * v_opacity * fade_opacity);
}

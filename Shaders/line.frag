#version 300 es
precision highp float;
precision highp int;
uniform float u_ratio;
in vec2 v_normal;
flat in vec2 v_width2;
in float v_gamma_scale;
flat in vec4 v_color;
flat in float v_blur;
in float v_distance;
#ifdef DASH
uniform sampler2D u_dash;         // line atlas (R8 signed distances)
uniform float u_mix;              // cross-fade from -> to pattern (1 on a still frame)
in vec2 v_tex_a;
in vec2 v_tex_b;
flat in float v_sdfgamma;
#endif
#ifdef GRADIENT
uniform sampler2D u_gradient;     // colour ramp (premultiplied RGBA8), one row per clip
in highp vec2 v_uv;
#endif
#ifdef PATTERN
uniform sampler2D u_image;        // pattern atlas (premultiplied RGBA8, LINEAR, clamped)
uniform vec2 u_texsize;
uniform float u_fade;             // cross-fade from -> to image (1 on a still frame)
uniform vec3 u_scale;             // tile units -> pattern pixels at the tile zoom, from scale, to scale
flat in vec4 v_pattern_from;
flat in vec4 v_pattern_to;
flat in vec2 v_pattern_ratio;
in float v_linesofar;
flat in float v_floorwidth;
#endif
out vec4 fragColor;
void main() {
    // Distance of the fragment from the centre line, in CSS pixels.
    float dist = length(v_normal) * v_width2.s;
    // Fade over blur + 1 device pixel at each edge (and the inner edge of a gap).
    float blur2 = (v_blur + 1.0 / u_ratio) * v_gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
#ifdef DASH
    float sdfdist = mix(texture(u_dash, v_tex_a).r, texture(u_dash, v_tex_b).r, u_mix);
    alpha *= smoothstep(0.5 - v_sdfgamma, 0.5 + v_sdfgamma, sdfdist);
#endif
#ifdef GRADIENT
    fragColor = texture(u_gradient, v_uv) * (v_color.a * alpha);
#elif defined(PATTERN)
    // MapLibre's line_pattern: the image's height spans the floor width, its width follows.
    vec2 size_a = (v_pattern_from.zw - v_pattern_from.xy) / v_pattern_ratio.x;
    vec2 size_b = (v_pattern_to.zw - v_pattern_to.xy) / v_pattern_ratio.y;
    float x_a = mod(v_linesofar / (size_a.x * u_scale.y / u_scale.x) * (size_a.y / v_floorwidth), 1.0);
    float x_b = mod(v_linesofar / (size_b.x * u_scale.z / u_scale.x) * (size_b.y / v_floorwidth), 1.0);
    float y = 0.5 * v_normal.y + 0.5;
    vec2 texel = 1.0 / u_texsize;
    vec2 pos_a = mix(v_pattern_from.xy * texel - texel, v_pattern_from.zw * texel + texel, vec2(x_a, y));
    vec2 pos_b = mix(v_pattern_to.xy * texel - texel, v_pattern_to.zw * texel + texel, vec2(x_b, y));
    fragColor = mix(texture(u_image, pos_a), texture(u_image, pos_b), u_fade) * (v_color.a * alpha);
#else
    fragColor = v_color * alpha;
#endif
}

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
#else
    fragColor = v_color * alpha;
#endif
}

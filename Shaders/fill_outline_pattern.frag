#version 300 es
precision highp float;
flat in vec4 v_color;
uniform vec2 u_texsize;
uniform float u_fade;
uniform sampler2D u_image;
in vec2 v_pos_a;
in vec2 v_pos_b;
flat in vec4 v_pattern_from;
flat in vec4 v_pattern_to;
#ifdef AFFINE
in float v_dist;
#else
flat in vec4 v_ends;
flat in vec2 v_end_w;
in vec3 v_frag;
#endif
out vec4 fragColor;
void main() {
#ifdef AFFINE
    float alpha = 1.0 - smoothstep(0.0, 1.0, abs(v_dist));
#else
    // The GL line's interpolation parameter: the fragment projected onto the edge in window
    // space, then corrected for perspective as a varying is (weights t/w_b and (1 − t)/w_a).
    vec2 frag = v_frag.xy / v_frag.z;
    vec2 a = v_ends.xy;
    vec2 ab = v_ends.zw - a;
    float len2 = dot(ab, ab);
    float t = len2 > 0.0 ? dot(frag - a, ab) / len2 : 0.0;
    float wa = 1.0 / v_end_w.x, wb = t / v_end_w.y;
    float denom = (1.0 - t) * wa + wb;
    float tp = denom != 0.0 ? wb / denom : t;
    float alpha = 1.0 - smoothstep(0.0, 1.0, length(frag - (a + tp * ab)));
#endif
    vec4 color1 = texture(u_image, mix(v_pattern_from.xy / u_texsize, v_pattern_from.zw / u_texsize, mod(v_pos_a, 1.0)));
    vec4 color2 = texture(u_image, mix(v_pattern_to.xy / u_texsize, v_pattern_to.zw / u_texsize, mod(v_pos_b, 1.0)));
    fragColor = mix(color1, color2, u_fade) * v_color.a * alpha;
}

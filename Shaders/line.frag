#version 300 es
precision highp float;
uniform float u_ratio;
in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in vec4 v_color;
in float v_blur;
in float v_distance;
out vec4 fragColor;
void main() {
    // Distance of the fragment from the centre line, in CSS pixels.
    float dist = length(v_normal) * v_width2.s;
    // Fade over blur + 1 device pixel at each edge (and the inner edge of a gap).
    float blur2 = (v_blur + 1.0 / u_ratio) * v_gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
    fragColor = v_color * alpha;
}

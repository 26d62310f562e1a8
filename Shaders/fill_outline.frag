#version 300 es
precision highp float;
uniform vec4 u_clip_box;        // as in fill.frag
in vec4 v_color;
in float v_dist;
in vec2 v_clip_pos;
out vec4 fragColor;
void main() {
    if (any(lessThan(v_clip_pos, u_clip_box.xy)) || any(greaterThan(v_clip_pos, u_clip_box.zw))) discard;
    float alpha = 1.0 - smoothstep(0.0, 1.0, abs(v_dist));
    fragColor = v_color * alpha;
}

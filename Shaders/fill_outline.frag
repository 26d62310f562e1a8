#version 300 es
precision highp float;
in vec4 v_color;
in float v_dist;
out vec4 fragColor;
void main() {
    float alpha = 1.0 - smoothstep(0.0, 1.0, abs(v_dist));
    fragColor = v_color * alpha;
}

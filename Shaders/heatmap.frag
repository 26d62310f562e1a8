#version 300 es
precision highp float;
// The kernel's value at this fragment, added into the density texture's red channel.
in vec2 v_extrude;
flat in float v_weight;
flat in float v_intensity;
out vec4 fragColor;
const float GAUSS_COEF = 0.3989422804014327;
void main() {
    float d = -0.5 * 3.0 * 3.0 * dot(v_extrude, v_extrude);
    fragColor = vec4(v_weight * v_intensity * GAUSS_COEF * exp(d), 1.0, 1.0, 1.0);
}

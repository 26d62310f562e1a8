#version 300 es
// Heatmap density pass (MapLibre's heatmap shader): one square (four vertices) per point in the map
// plane, just large enough that the Gaussian kernel (standard deviation radius / 3) falls to an
// effective zero (1/255/16) at its edge: S = sqrt(−2·log(zero / (weight·intensity·1/√(2π)))) / 3
// radii each side. Drawn into the density texture with additive blending.
uniform mat4 u_matrix;          // tile units -> clip space
uniform float u_extrude_scale;  // tile units per CSS pixel at the frame zoom
in vec2 a_corner;               // (±1, ±1)
in vec2 a_center;               // tile units
#pragma glmap: define float weight
#pragma glmap: define float radius
#pragma glmap: define float intensity
out vec2 v_extrude;             // position in radii from the centre
flat out float v_weight;
flat out float v_intensity;
const float ZERO = 1.0 / 255.0 / 16.0;
const float GAUSS_COEF = 0.3989422804014327;
void main() {
    #pragma glmap: initialize float weight
    #pragma glmap: initialize float radius
    #pragma glmap: initialize float intensity
    float S = sqrt(-2.0 * log(ZERO / weight / intensity / GAUSS_COEF)) / 3.0;
    v_extrude = S * a_corner;
    vec2 extrude = v_extrude * radius * u_extrude_scale;
    gl_Position = u_matrix * vec4(a_center + extrude, 0.0, 1.0);
    v_weight = weight;
    v_intensity = intensity;
}

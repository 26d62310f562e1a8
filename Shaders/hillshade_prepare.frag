#version 300 es
// Hillshade prepare: GL JS's hillshade_prepare.fragment. The Sobel slopes of the DEM around each
// pixel (3 × 3 elevations, borders from the neighbouring tiles), scaled for the zoom, stored as
// deriv / 8 + 0.5 in the red and green channels of an RGBA8 texture.
precision highp float;
uniform sampler2D u_image;
uniform vec2 u_dimension;
uniform float u_zoom;
uniform vec4 u_unpack;
in vec2 v_pos;
out vec4 fragColor;

float getElevation(vec2 coord) {
    vec4 data = texture(u_image, coord) * 255.0;
    data.a = -1.0;
    return dot(data, u_unpack);
}

void main() {
    vec2 epsilon = 1.0 / u_dimension;
    float tileSize = u_dimension.x - 2.0;
    float a = getElevation(v_pos + vec2(-epsilon.x, -epsilon.y));
    float b = getElevation(v_pos + vec2(0.0, -epsilon.y));
    float c = getElevation(v_pos + vec2(epsilon.x, -epsilon.y));
    float d = getElevation(v_pos + vec2(-epsilon.x, 0.0));
    float f = getElevation(v_pos + vec2(epsilon.x, 0.0));
    float g = getElevation(v_pos + vec2(-epsilon.x, epsilon.y));
    float h = getElevation(v_pos + vec2(0.0, epsilon.y));
    float i = getElevation(v_pos + vec2(epsilon.x, epsilon.y));
    float exaggerationFactor = u_zoom < 2.0 ? 0.4 : u_zoom < 4.5 ? 0.35 : 0.3;
    float exaggeration = u_zoom < 15.0 ? (u_zoom - 15.0) * exaggerationFactor : 0.0;
    vec2 deriv = vec2((c + f + f + i) - (a + d + d + g), (g + h + h + i) - (a + b + b + c))
        * tileSize / pow(2.0, exaggeration + (28.2562 - u_zoom));
    fragColor = clamp(vec4(deriv.x / 8.0 + 0.5, deriv.y / 8.0 + 0.5, 1.0, 1.0), 0.0, 1.0);
}

#version 300 es
// Color relief: GL JS's color_relief.fragment. The elevation from the linearly sampled DEM, found
// between the ramp's stops by binary search (stops stored in the DEM's own encoding), the colour
// read from the ramp texture with linear filtering, times the opacity.
precision highp float;
uniform sampler2D u_image;
uniform vec4 u_unpack;
uniform sampler2D u_elevation_stops;
uniform sampler2D u_color_stops;
uniform int u_color_ramp_size;
uniform float u_opacity;
in vec2 v_pos;
out vec4 fragColor;

float getElevation(vec2 coord) {
    vec4 data = texture(u_image, coord) * 255.0;
    data.a = -1.0;
    return dot(data, u_unpack);
}

float getElevationStop(int stop) {
    float x = (float(stop) + 0.5) / float(u_color_ramp_size);
    vec4 data = texture(u_elevation_stops, vec2(x, 0.0)) * 255.0;
    data.a = -1.0;
    return dot(data, u_unpack);
}

void main() {
    float el = getElevation(v_pos);
    int r = u_color_ramp_size - 1;
    int l = 0;
    float el_l = getElevationStop(l);
    float el_r = getElevationStop(r);
    while (r - l > 1) {
        int m = (r + l) / 2;
        float el_m = getElevationStop(m);
        if (el < el_m) {
            r = m;
            el_r = el_m;
        } else {
            l = m;
            el_l = el_m;
        }
    }
    float x = (float(l) + (el - el_l) / (el_r - el_l) + 0.5) / float(u_color_ramp_size);
    fragColor = u_opacity * texture(u_color_stops, vec2(x, 0.0));
}

#version 300 es
// Hillshade: GL JS's hillshade.fragment over the prepared slopes (sampled linearly), corrected
// for the latitude's Mercator scale, shaded by one of five methods with up to 16 lights.
precision highp float;
uniform sampler2D u_image;
uniform vec2 u_latrange;
uniform float u_exaggeration;
uniform vec4 u_accent;
uniform int u_method;
uniform int u_num_lights;
uniform float u_altitudes[16];
uniform float u_azimuths[16];
uniform vec4 u_shadows[16];
uniform vec4 u_highlights[16];
in vec2 v_pos;
out vec4 fragColor;

#define PI 3.141592653589793
#define STANDARD 0
#define COMBINED 1
#define IGOR 2
#define MULTIDIRECTIONAL 3
#define BASIC 4

float get_aspect(vec2 deriv) {
    return deriv.x != 0.0 ? atan(deriv.y, -deriv.x) : PI / 2.0 * (deriv.y > 0.0 ? 1.0 : -1.0);
}

void igor_hillshade(vec2 deriv) {
    deriv = deriv * u_exaggeration * 2.0;
    float aspect = get_aspect(deriv);
    float azimuth = u_azimuths[0] + PI;
    float slope_strength = atan(length(deriv)) * 2.0 / PI;
    float aspect_strength = 1.0 - abs(mod((aspect + azimuth) / PI + 0.5, 2.0) - 1.0);
    float shadow_strength = slope_strength * aspect_strength;
    float highlight_strength = slope_strength * (1.0 - aspect_strength);
    fragColor = u_shadows[0] * shadow_strength + u_highlights[0] * highlight_strength;
}

void standard_hillshade(vec2 deriv) {
    float azimuth = u_azimuths[0] + PI;
    float slope = atan(0.625 * length(deriv));
    float aspect = get_aspect(deriv);
    float intensity = u_exaggeration;
    float base = 1.875 - intensity * 1.75;
    float maxValue = 0.5 * PI;
    float scaledSlope = intensity != 0.5 ? ((pow(base, slope) - 1.0) / (pow(base, maxValue) - 1.0)) * maxValue : slope;
    float accent = cos(scaledSlope);
    vec4 accent_color = (1.0 - accent) * u_accent * clamp(intensity * 2.0, 0.0, 1.0);
    float shade = abs(mod((aspect + azimuth) / PI + 0.5, 2.0) - 1.0);
    vec4 shade_color = mix(u_shadows[0], u_highlights[0], shade) * sin(scaledSlope) * clamp(intensity * 2.0, 0.0, 1.0);
    fragColor = accent_color * (1.0 - shade_color.a) + shade_color;
}

void basic_hillshade(vec2 deriv) {
    deriv = deriv * u_exaggeration * 2.0;
    float azimuth = u_azimuths[0] + PI;
    float cos_az = cos(azimuth);
    float sin_az = sin(azimuth);
    float cos_alt = cos(u_altitudes[0]);
    float sin_alt = sin(u_altitudes[0]);
    float cang = (sin_alt - (deriv.y * cos_az * cos_alt - deriv.x * sin_az * cos_alt)) / sqrt(1.0 + dot(deriv, deriv));
    float shade = clamp(cang, 0.0, 1.0);
    if (shade > 0.5) {
        fragColor = u_highlights[0] * (2.0 * shade - 1.0);
    } else {
        fragColor = u_shadows[0] * (1.0 - 2.0 * shade);
    }
}

void multidirectional_hillshade(vec2 deriv) {
    deriv = deriv * u_exaggeration * 2.0;
    fragColor = vec4(0.0);
    float n = float(u_num_lights);
    for (int i = 0; i < 16; i++) {
        if (i >= u_num_lights) break;
        float cos_alt = cos(u_altitudes[i]);
        float sin_alt = sin(u_altitudes[i]);
        float cos_az = -cos(u_azimuths[i]);
        float sin_az = -sin(u_azimuths[i]);
        float cang = (sin_alt - (deriv.y * cos_az * cos_alt - deriv.x * sin_az * cos_alt)) / sqrt(1.0 + dot(deriv, deriv));
        float shade = clamp(cang, 0.0, 1.0);
        if (shade > 0.5) {
            fragColor += u_highlights[i] * (2.0 * shade - 1.0) / n;
        } else {
            fragColor += u_shadows[i] * (1.0 - 2.0 * shade) / n;
        }
    }
}

void combined_hillshade(vec2 deriv) {
    deriv = deriv * u_exaggeration * 2.0;
    float azimuth = u_azimuths[0] + PI;
    float cos_az = cos(azimuth);
    float sin_az = sin(azimuth);
    float cos_alt = cos(u_altitudes[0]);
    float sin_alt = sin(u_altitudes[0]);
    float cang = acos(clamp((sin_alt - (deriv.y * cos_az * cos_alt - deriv.x * sin_az * cos_alt)) / sqrt(1.0 + dot(deriv, deriv)), -1.0, 1.0));
    cang = clamp(cang, 0.0, PI / 2.0);
    float shade = cang * atan(length(deriv)) * 4.0 / PI / PI;
    float highlight = (PI / 2.0 - cang) * atan(length(deriv)) * 4.0 / PI / PI;
    fragColor = u_shadows[0] * shade + u_highlights[0] * highlight;
}

void main() {
    vec4 pixel = texture(u_image, v_pos);
    float scaleFactor = cos(radians((u_latrange[0] - u_latrange[1]) * (1.0 - v_pos.y) + u_latrange[1]));
    vec2 deriv = ((pixel.rg * 8.0) - 4.0) / scaleFactor;
    if (u_method == BASIC) {
        basic_hillshade(deriv);
    } else if (u_method == COMBINED) {
        combined_hillshade(deriv);
    } else if (u_method == IGOR) {
        igor_hillshade(deriv);
    } else if (u_method == MULTIDIRECTIONAL) {
        multidirectional_hillshade(deriv);
    } else {
        standard_hillshade(deriv);
    }
}

#version 300 es
// Raster: GL JS's raster.fragment (a still frame: no cross-fade with a parent tile). The picture
// is premultiplied; it is un-premultiplied, hue-rotated (u_spin_weights), saturated, contrasted
// and mapped into [brightness-min, brightness-max], then premultiplied by alpha × opacity.
precision highp float;
uniform sampler2D u_image0;
uniform float u_opacity;
uniform float u_brightness_low;
uniform float u_brightness_high;
uniform float u_saturation_factor;
uniform float u_contrast_factor;
uniform vec3 u_spin_weights;
in vec2 v_pos0;
out vec4 fragColor;
void main() {
    vec4 color = texture(u_image0, v_pos0);
    if (color.a > 0.0) {
        color.rgb = color.rgb / color.a;
    }
    color.a *= u_opacity;
    vec3 rgb = color.rgb;
    rgb = vec3(dot(rgb, u_spin_weights.xyz), dot(rgb, u_spin_weights.zxy), dot(rgb, u_spin_weights.yzx));
    float average = (color.r + color.g + color.b) / 3.0;
    rgb += (average - rgb) * u_saturation_factor;
    rgb = (rgb - 0.5) * u_contrast_factor + 0.5;
    vec3 low = vec3(u_brightness_low);
    vec3 high = vec3(u_brightness_high);
    fragColor = vec4(mix(low, high, rgb) * color.a, color.a);
}

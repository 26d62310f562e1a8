#version 300 es
precision mediump float;
// A ring at the circle's radius, 0.9 px wide (wider where near the camera), blue for circles that
// fit and red for those that collided, at half strength (less where far); premultiplied.
in float v_radius;
in vec2 v_extrude;
in float v_collision;
in float v_perspective_ratio;
out vec4 fragColor;
void main() {
    float alpha = 0.5 * min(v_perspective_ratio, 1.0);
    float stroke = 0.9 * max(v_perspective_ratio, 1.0);
    float distance_to_edge = abs(length(v_extrude) - v_radius);
    float opacity_t = smoothstep(-stroke, 0.0, -distance_to_edge);
    vec4 color = mix(vec4(0.0, 0.0, 1.0, 0.5), vec4(1.0, 0.0, 0.0, 1.0), v_collision);
    fragColor = color * alpha * opacity_t;
}

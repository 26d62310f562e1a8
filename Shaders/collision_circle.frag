#version 300 es
precision mediump float;
// A ring at the circle's radius, 0.9 px wide, blue for circles that fit and red for those that
// collided, at half strength; premultiplied.
in float v_radius;
in vec2 v_extrude;
in float v_collision;
out vec4 fragColor;
void main() {
    float distance_to_edge = abs(length(v_extrude) - v_radius);
    float opacity_t = smoothstep(-0.9, 0.0, -distance_to_edge);
    vec4 color = mix(vec4(0.0, 0.0, 1.0, 0.5), vec4(1.0, 0.0, 0.0, 1.0), v_collision);
    fragColor = color * 0.5 * opacity_t;
}

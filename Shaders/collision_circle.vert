#version 300 es
// Collision debug circles of line labels (GL JS's collision_circle program): one quad per
// circle, its corner from gl_VertexID & 3 (0: −−, 1: −+, 2: ++, 3: +−), 1.2 × the radius around
// the centre placement put on the screen (CSS px, y down). u_fold is the tiled frame's fold.
uniform vec2 u_viewport_size;   // CSS px
uniform mat4 u_fold;
in vec2 a_pos;                  // centre, CSS px
in float a_radius;              // CSS px
in float a_collision;           // 1: collided
in float a_perspective_ratio;   // at the centre, from the placement
out float v_radius;
out vec2 v_extrude;
out float v_collision;
out float v_perspective_ratio;
void main() {
    float corner = float(gl_VertexID & 3);
    vec2 offset = vec2(mix(-1.0, 1.0, float(corner >= 2.0)), mix(-1.0, 1.0, float(corner >= 1.0 && corner <= 2.0)));
    vec2 extent = offset * a_radius * 1.2;
    v_radius = a_radius;
    v_extrude = extent;
    v_collision = a_collision;
    v_perspective_ratio = a_perspective_ratio;
    vec2 ndc = (a_pos / u_viewport_size * 2.0 - 1.0) * vec2(1.0, -1.0);
    gl_Position = u_fold * vec4(ndc + extent / u_viewport_size * 2.0, 0.0, 1.0);
}

#version 300 es
// Collision debug boxes (GL JS's collision_box program): the placement has already put each
// box corner on the screen (CSS px, y down: anchor projected, extrude and variable-anchor shift
// scaled by the perspective ratio), so this maps CSS px to clip space; drawn as GL_LINES with
// one premultiplied colour per box. u_fold is the tiled frame's clip-space fold.
uniform vec2 u_viewport_size;   // CSS px
uniform mat4 u_fold;
in vec2 a_pos;                  // CSS px
in vec4 a_color;                // premultiplied
out vec4 v_color;
void main() {
    vec2 ndc = vec2(a_pos.x / u_viewport_size.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport_size.y * 2.0);
    gl_Position = u_fold * vec4(ndc, 0.0, 1.0);
    v_color = a_color;
}

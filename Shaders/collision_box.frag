#version 300 es
precision mediump float;
// The box's colour: blue when placed, red when it collided, a tenth when the box is not in use.
in vec4 v_color;
out vec4 fragColor;
void main() {
    fragColor = v_color;
}

#version 300 es
precision mediump float;
// Colour writes are off while masks are drawn; only the stencil reference is written.
out vec4 fragColor;
void main() {
    fragColor = vec4(0.0);
}

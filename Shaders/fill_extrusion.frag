#version 300 es
precision highp float;
// The vertex colour (lit, premultiplied by the layer opacity), depth-tested against every
// extrusion drawn before it in the frame.
in vec4 v_color;
out vec4 fragColor;
void main() {
    fragColor = v_color;
}

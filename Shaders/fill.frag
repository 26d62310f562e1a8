#version 300 es
precision highp float;
// The stencil keeps each tile's triangles inside its square (MapLibre's tile clipping).
flat in vec4 v_color;
out vec4 fragColor;
void main() {
    fragColor = v_color;
}

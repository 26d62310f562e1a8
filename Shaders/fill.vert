#version 300 es
// Fill: earcut triangles in tile units. Paint inputs (`#pragma glmap`, see GPUBinding):
// uniforms when the layer's value is constant, vertex attributes when data-driven.
uniform mat4 u_matrix;          // tile units -> clip space (fill-translate already applied)
in vec2 a_pos;
#pragma glmap: define vec4 color
#pragma glmap: define float opacity
flat out vec4 v_color;
void main() {
    #pragma glmap: initialize vec4 color
    #pragma glmap: initialize float opacity
    v_color = color * opacity;      // colour premultiplied
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}

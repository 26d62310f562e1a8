#version 300 es
// Fill: earcut triangles in bucket-local units. Paint inputs (`#pragma glmap`, see GPUBinding):
// uniforms when the layer's value is constant, vertex attributes when data-driven.
uniform mat4 u_matrix;          // bucket-local units -> clip space (translate already applied)
uniform vec2 u_clip_shift;      // fill-translate in bucket-local units (see fill.frag)
in vec2 a_pos;
#pragma glmap: define vec4 color
#pragma glmap: define float opacity
flat out vec4 v_color;
#ifdef CLIP
out vec2 v_clip_pos;            // where the fragment lands, untranslated tile space (bucket-local units)
#endif
void main() {
    #pragma glmap: initialize vec4 color
    #pragma glmap: initialize float opacity
    v_color = color * opacity;      // colour premultiplied
#ifdef CLIP
    v_clip_pos = a_pos + u_clip_shift;
#endif
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}

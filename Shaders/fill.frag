#version 300 es
precision highp float;
// u_clip_box: the square of the tile this draw belongs to (bucket-local units; infinite when the
// piece is not clipped). MapLibre clips each tile's fill to its square with the stencil, which
// fill-translate does not move: a fragment is kept when its untranslated position lies inside.
// Only the CLIP variant (a bucket with such pieces) tests it; the others discard nothing.
#ifdef CLIP
uniform vec4 u_clip_box;
in vec2 v_clip_pos;
#endif
flat in vec4 v_color;
out vec4 fragColor;
void main() {
#ifdef CLIP
    if (any(lessThan(v_clip_pos, u_clip_box.xy)) || any(greaterThan(v_clip_pos, u_clip_box.zw))) discard;
#endif
    fragColor = v_color;
}

#version 300 es
// Fill extrusion: walls and roofs in tile units, lifted to base/height metres (MapLibre's
// fill_extrusion shader: the same lighting arithmetic). u_matrix maps tile units and metres to
// clip space (z scaled by pixels per metre at the centre latitude; fill-extrusion-translate
// already applied). a_normal_ed is MapLibre's packing: x = floor(nx·8192)·2 + top flag,
// y, z = the normal × 16384, w = distance along the ring (patterns only).
uniform mat4 u_matrix;
uniform vec3 u_lightcolor;
uniform vec3 u_lightpos;
uniform float u_lightintensity;
uniform float u_vertical_gradient;
in vec2 a_pos;
in vec4 a_normal_ed;
#pragma glmap: define float opacity
#pragma glmap: define vec4 color
#pragma glmap: define float height
#pragma glmap: define float base
out vec4 v_color;
void main() {
    #pragma glmap: initialize float opacity
    #pragma glmap: initialize vec4 color
    #pragma glmap: initialize float height
    #pragma glmap: initialize float base
    vec3 normal = a_normal_ed.xyz;
    // Below-ground floors and ceilings are clamped to the ground.
    base = max(0.0, base);
    height = max(0.0, height);
    float t = mod(normal.x, 2.0);
    gl_Position = u_matrix * vec4(a_pos, t > 0.0 ? height : base, 1.0);
    // Relative luminance of the surface colour.
    float colorvalue = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
    v_color = vec4(0.0, 0.0, 0.0, 1.0);
    // A little ambient light so no extrusion is wholly black.
    color += vec4(0.03, 0.03, 0.03, 1.0);
    float directional = clamp(dot(normal / 16384.0, u_lightpos), 0.0, 1.0);
    // Narrower highlight/shade range for weaker light and brighter surfaces.
    directional = mix(1.0 - u_lightintensity, max(1.0 - colorvalue + u_lightintensity, 1.0), directional);
    if (normal.y != 0.0) {
        // Walls: darker towards the base (× 0.84…1 by height), or a constant when the gradient is off.
        directional *= (1.0 - u_vertical_gradient)
            + u_vertical_gradient * clamp((t + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
    }
    // Shading tinted towards the light colour's complement at its lower bound.
    v_color.r += clamp(color.r * directional * u_lightcolor.r, mix(0.0, 0.3, 1.0 - u_lightcolor.r), 1.0);
    v_color.g += clamp(color.g * directional * u_lightcolor.g, mix(0.0, 0.3, 1.0 - u_lightcolor.g), 1.0);
    v_color.b += clamp(color.b * directional * u_lightcolor.b, mix(0.0, 0.3, 1.0 - u_lightcolor.b), 1.0);
    v_color *= opacity;
}

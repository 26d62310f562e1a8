/// GLSL ES 3.00 sources of glmap's programs, embedded at build time.
public enum ShaderSource {}

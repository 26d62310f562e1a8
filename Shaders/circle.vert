#version 300 es

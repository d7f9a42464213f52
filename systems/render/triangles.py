"""TriangleDrawer: a (m, 6) vertex array drawn as coloured triangles in one OpenGL call.

The debug overlay builds everything it shows into one such array (`overlay_shapes`); this
uploads it and draws it with a tiny shader of its own, using only arcade.gl's public API and
arcade's projection block (binding 0). Importing it imports arcade.
"""

import arcade
import numpy as np

from shoal.systems.render.overlay_shapes import Vertices

_VERTEX_BYTES = 24  # x, y, r, g, b, a as float32
_VERTEX_SHADER = """
#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
in vec2 in_vert;
in vec4 in_color;
out vec4 v_color;
void main() {
    gl_Position = window.projection * window.view * vec4(in_vert, 0.0, 1.0);
    v_color = in_color / 255.0;
}
"""
_FRAGMENT_SHADER = """
#version 330
in vec4 v_color;
out vec4 f_color;
void main() { f_color = v_color; }
"""


class TriangleDrawer:
    """Draws a (m, 6) vertex array (x, y, r, g, b, a; colours 0..255) as triangles.

    Args:
        ctx: the window's OpenGL context (`arcade.get_window().ctx`).
    """

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.ctx = ctx
        self.program = ctx.program(vertex_shader=_VERTEX_SHADER, fragment_shader=_FRAGMENT_SHADER)
        self.buffer = ctx.buffer(reserve=_VERTEX_BYTES * 4096, usage="stream")
        self.geometry = ctx.geometry(
            [arcade.gl.BufferDescription(self.buffer, "2f 4f", ["in_vert", "in_color"])]
        )

    def draw(self, vertices: Vertices) -> None:
        """Upload `vertices` (growing the buffer if needed) and draw them, blended."""
        if len(vertices) == 0:
            return
        data = np.ascontiguousarray(vertices, np.float32)
        if data.nbytes > self.buffer.size:
            self.buffer.orphan(size=2 * data.nbytes)  # a multiple of the vertex size
        self.buffer.write(data.tobytes())
        with self.ctx.enabled(self.ctx.BLEND):
            self.geometry.render(self.program, mode=self.ctx.TRIANGLES, vertices=len(data))

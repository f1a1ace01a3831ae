// Shapes more than one game draws.

/** An SVG path for a five-pointed star centred on (cx, cy). */
export function starPath(cx, cy, outer, inner = outer * 0.45) {
  let d = "";
  for (let i = 0; i < 10; i += 1) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rad = i % 2 === 0 ? outer : inner;
    d += `${i === 0 ? "M" : "L"}${(cx + rad * Math.cos(a)).toFixed(1)} ${(cy + rad * Math.sin(a)).toFixed(1)}`;
  }
  return `${d}Z`;
}

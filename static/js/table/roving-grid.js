// A board of cells that is a single Tab stop: the focused cell alone has tabindex 0, the arrow keys move
// it, Enter or Space acts on it (the WAI-ARIA grid pattern).

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export class RovingGrid {
  /** `cell(r, c)`: the cell's element; `size()`: its rows (= columns); `jumps`: Home / End (with Ctrl: the
   * first / last row), PageUp / PageDown move to the edges too. */
  constructor({ cell, size, start = [0, 0], jumps = false }) {
    this.cell = cell;
    this.size = size;
    this.at = start;
    this.jumps = jumps;
  }

  /** The tabindex the cell (r, c) should carry. */
  tabindex(r, c) {
    return r === this.at[0] && c === this.at[1] ? "0" : "-1";
  }

  /** Focus the cell (r, c), clamped to the board. */
  moveTo(r, c) {
    const last = this.size() - 1;
    r = Math.max(0, Math.min(last, r));
    c = Math.max(0, Math.min(last, c));
    this.cell(this.at[0], this.at[1])?.setAttribute("tabindex", "-1");
    this.at = [r, c];
    const node = this.cell(r, c);
    node.setAttribute("tabindex", "0");
    node.focus();
  }

  /** A keydown on the cell (r, c): moves the focus or calls `activate(r, c)`; false for any other key. */
  onKey(event, r, c, activate) {
    const last = this.size() - 1;
    const step = STEPS[event.key];
    let to = step ? [r + step[0], c + step[1]] : null;
    if (!to && this.jumps) {
      if (event.key === "Home") to = [event.ctrlKey ? 0 : r, 0];
      else if (event.key === "End") to = [event.ctrlKey ? last : r, last];
      else if (event.key === "PageUp") to = [0, c];
      else if (event.key === "PageDown") to = [last, c];
    }
    if (to) {
      event.preventDefault();
      this.moveTo(to[0], to[1]);
      return true;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate(r, c);
      return true;
    }
    return false;
  }
}

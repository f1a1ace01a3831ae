// Waiting for the state an action produced. The server's ack ({id, version}) can arrive before the `state`
// message of that version: until that state is here the renderer offers nothing, or a second click would be
// judged against a position the player has not seen yet.

export class AckGate {
  constructor() {
    this.pending = false;
    this.waitVersion = -1;
  }

  /** Remember the version an ack names; call with whatever `ctx.act` resolved to. */
  noteAck(ack) {
    if (ack && Number.isInteger(ack.version)) this.waitVersion = Math.max(this.waitVersion, ack.version);
  }

  /** True while an action is in flight or its state has not arrived yet (`version`: the latest state's). */
  busy(version) {
    return this.pending || Number(version) < this.waitVersion;
  }

  /** Send `action` through `ctx.act`, busy until it is answered; `after()` runs either way (redraw). */
  send(ctx, action, after = () => {}) {
    this.pending = true;
    return ctx
      .act(action)
      .then((ack) => {
        this.noteAck(ack);
        return ack;
      })
      .catch(() => undefined) // the room page already shows the refusal as a toast
      .finally(() => {
        this.pending = false;
        after();
      });
  }
}

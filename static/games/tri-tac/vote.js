// The vote on a full board: add a ring of cells or end the game; who has voted, and the two ballots.

import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { markerBadge } from "./markers.js";

/** `vote(expand)` sends the viewer's ballot. */
export function createVote(m, vote) {
  const node = el("section", { class: "tt-vote", hidden: true, "aria-labelledby": `${m.uid}-vote-title` });

  function draw() {
    const { view, mySeat } = m;
    if (view.phase !== "vote" || !view.votes) {
      node.hidden = true;
      node.replaceChildren();
      node.dataset.sig = "";
      return;
    }
    const from = view.size;
    const to = Math.min(12, from + 2);
    const myVote = mySeat !== null && mySeat !== undefined ? view.votes[mySeat] : null;
    const sig = JSON.stringify([view.votes, m.busy()]);
    if (node.dataset.sig === sig) return;
    const firstShow = node.hidden;
    node.dataset.sig = sig;
    const seatsState = view.votes.map((v, seat) =>
      el("li", { class: v.voted ? "is-voted" : "" },
        markerBadge(m.markerOf(seat), seat),
        el("span", {}, m.who(seat)),
        el("span", { class: "tt-vote-state" }, v.voted ? `✓ ${t("tri-tac.voted")}` : "…")),
    );
    const parts = [
      el("h3", { id: `${m.uid}-vote-title`, class: "tt-vote-title" }, t("tri-tac.vote_title")),
      el("p", {}, t("tri-tac.vote_text", { from, to })),
      el("ul", { class: "tt-vote-seats" }, seatsState),
    ];
    const canVote = myVote && !myVote.voted && (m.lastMsg?.to_act || []).includes(mySeat);
    if (canVote) {
      parts.push(
        el("div", { class: "tt-vote-actions" },
          el("button", { type: "button", class: "btn btn-primary", disabled: m.busy(), onclick: () => vote(true) }, t("tri-tac.vote_yes")),
          el("button", { type: "button", class: "btn btn-secondary", disabled: m.busy(), onclick: () => vote(false) }, t("tri-tac.vote_no"))),
      );
    } else if (myVote && myVote.voted) {
      parts.push(el("p", { class: "muted" }, t("tri-tac.vote_you", { choice: myVote.expand ? t("tri-tac.vote_yes") : t("tri-tac.vote_no") }), " ", t("tri-tac.vote_waiting")));
    }
    node.replaceChildren(...parts);
    node.hidden = false;
    if (firstShow && canVote) node.querySelector("button")?.focus();
  }

  return { node, draw };
}

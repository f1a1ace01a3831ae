// "What happened": the state messages' events as short lines, newest first, the automa's with its reasons.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardText } from "../../js/table/cards.js";
import { finalHeadline, finalPoints } from "./final.js";
import { locText, put, reducedMotion } from "./state.js";

const FEED_MAX = 14;

/** The feed of `T`: `absorb(events)` notes a message's events, `draw()` shows what is new. */
export function eventFeed(T) {
  let feed = [];
  let feedSeq = 0;
  // It scrolls on its own, so it takes the keyboard focus (axe scrollable-region-focusable).
  const list = el("ol", { class: "tk-feed-list", tabindex: "0", "aria-labelledby": `${T.uid}-feed-title`, "aria-live": "polite", "aria-relevant": "additions" });
  const panel = el("section", { class: "tk-feed", "aria-labelledby": `${T.uid}-feed-title` },
    el("h3", { class: "tk-h", id: `${T.uid}-feed-title` }, t("tricky-tactics.feed_title")), list);

  function eventText(ev) {
    const view = T.view;
    const who = (pid) => T.whoOf(pid);
    switch (ev.kind) {
      case "deal":
        return t("tricky-tactics.ev_deal", { round: ev.round, dealer: who(ev.dealer), leader: who(ev.leader) });
      case "reveal":
        return t("tricky-tactics.ev_reveal", { cards: (ev.cards || []).map(cardText).join(" "), row: (ev.row || []).map(cardText).join(" ") });
      case "play":
        if (ev.player === "automa") return t("tricky-tactics.ev_automa_play", { card: cardText(ev.card), reason: T.reasonText(ev.reason) });
        return t("tricky-tactics.ev_play", { name: who(ev.player), card: cardText(ev.card) });
      case "trick":
        return t("tricky-tactics.ev_trick", { name: who(ev.winner), n: ev.number, card: cardText(ev.card) });
      case "action":
        if (ev.type === "skip") return t("tricky-tactics.ev_skip", { name: who(ev.player), reason: T.reasonText(ev.reason) });
        if (ev.player === "automa" && ev.reason) return t("tricky-tactics.ev_automa_action", { reason: T.reasonText(ev.reason) });
        if (ev.type === "add") return t("tricky-tactics.ev_add", { name: who(ev.player), loc: locText(ev.location) });
        return t("tricky-tactics.ev_remove", { name: who(ev.player), owner: who(ev.owner), loc: locText(ev.location) });
      case "round_scored":
        return t("tricky-tactics.ev_scored", { round: ev.round, points: T.pointsLine(ev.points) });
      case "round_end": {
        const automaGame = view?.mode === "automa";
        let text = automaGame ? t("tricky-tactics.ev_round_end", { n: ev.discarded_unseen }) : ev.discarded_unseen ? t("tricky-tactics.ev_round_end_plain", { n: ev.discarded_unseen }) : "";
        if (ev.carryover_discarded?.length) text += ` ${t("tricky-tactics.ev_carryover", { cards: ev.carryover_discarded.map(cardText).join(" ") })}`;
        return text.trim() || null;
      }
      case "game_over":
        return view?.standings ? `${finalHeadline(T, view.standings)} ${finalPoints(T, view.standings)}` : null;
      default:
        return null;
    }
  }

  /** Note a message's events: feed lines, and what the automa, its Reveal Row and the scoring show. */
  function absorb(events) {
    for (const ev of events) {
      const text = eventText(ev);
      if (text) feed.unshift({ text, kind: ev.kind, automa: ev.player === "automa" || (ev.kind === "trick" && ev.winner === "automa"), seq: (feedSeq += 1), fresh: true });
      if (ev.kind === "action" && ev.player === "automa") {
        T.automaAction = { reason: T.reasonText(ev.reason), type: ev.type, location: ev.location ?? null };
        T.automaLatest = "action";
      }
      if (ev.kind === "play" && ev.player === "automa") T.automaLatest = "play";
      if (ev.kind === "reveal") for (const c of ev.cards || []) T.flipCards.add(c);
      if (ev.kind === "round_scored") T.scoringOpenRound = ev.round;
    }
    feed = feed.slice(0, FEED_MAX);
  }

  function draw() {
    if (!feed.length) {
      if (!list.querySelector(".tk-feed-empty")) put(list, el("li", { class: "muted tk-feed-empty" }, t("tricky-tactics.feed_empty")));
      return;
    }
    list.querySelector(".tk-feed-empty")?.remove();
    // Prepend only what is new (newest first), so screen readers announce just the additions.
    const fresh = feed.filter((f) => f.fresh).reverse();
    for (const f of fresh) {
      list.prepend(el("li", { class: [`tk-ev-${f.kind}`, f.automa && "is-automa", !reducedMotion() && "is-fresh"] }, f.text));
      f.fresh = false;
    }
    while (list.children.length > FEED_MAX) list.lastElementChild.remove();
    for (const li of [...list.children].slice(fresh.length)) li.classList.remove("is-fresh");
  }

  return { panel, absorb, draw };
}

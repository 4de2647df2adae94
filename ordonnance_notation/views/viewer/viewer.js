"use strict";
// The page of `ordo view` (views/page.py writes the data). A step's picture is
// laid out here as picture.draw lays it out in Python, element for element:
// tests/test_viewer.py compares the two for every step of the samples.
(() => {
  const INDEX = JSON.parse(document.getElementById("index").textContent);
  const L = INDEX.layout;
  const V = INDEX.values;
  const ROWS = INDEX.rows; // [source, index in file, players, date, event, verdict, valid]
  const SHOWN_ROWS = 200; // list items drawn at a time: the list of 10,000 stays quick

  // ---- a scene, as views/page.py `fields` flattens it ----
  const { always: ALWAYS, shared: SHARED, seat: SEAT, army: ARMY } = INDEX.fields;
  const CARDS = INDEX.cards, CODES = INDEX.codes;
  const decode = (codes) => Array.from(codes, (c) => CARDS[CODES.indexOf(c)]);

  function unflatten(f, n) {
    const labels = [], handLabels = [], hands = [], armies = [];
    for (let s = 0; s < n; s++) {
      labels.push(f[SHARED + SEAT * s]);
      handLabels.push(f[SHARED + SEAT * s + 1]);
      hands.push(f[SHARED + SEAT * s + 2]);
    }
    let at = SHARED + SEAT * n;
    for (let i = 0; i < 5; i++) {
      const row = [];
      for (let s = 0; s < n; s++, at += ARMY) row.push([f[at], ...f[at + 1]]); // picture.Troops
      armies.push(row);
    }
    const [play, drew, glyph, played] = f[1];
    return {
      heading: [f[0], play, drew, glyph], mover: played === null ? null : played[1], played,
      pile: f[2], note: f[3], ending: f[4], stopped: f[5], stateHeads: f.slice(6, 11),
      statuses: f.slice(11, 16), labels, handLabels,
      hands: hands.every((h) => h === null) ? null : hands, armies, seats: n,
    };
  }

  // picture.seen_by
  function seenBy(sc, seat) {
    if (seat === null) return sc;
    const seen = sc.mover === null || sc.mover === seat;
    const hands = sc.hands === null ? null : sc.hands.map((hand, s) =>
      s === seat || typeof hand === "string" ? hand : L.HIDDEN_HAND.replace("{}", String(hand.length)));
    const [count, play, drew, glyph] = sc.heading;
    return { ...sc, heading: [count, play, seen ? drew : "", glyph], hands, ending: [sc.ending[0], ""] };
  }

  // ---- picture.draw ----
  const g = (x) => String(Number(x.toPrecision(6))); // Python's f"{x:g}"
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

  function text(x, y, words, css = "", anchor = "") {
    return `<text x="${g(x)}" y="${g(y)}"${css ? ` class="${css}"` : ""}` +
      `${anchor ? ` text-anchor="${anchor}"` : ""}>${esc(words)}</text>`;
  }

  function card(x, y, name, last = false, scale = 1) {
    const w = L.CARD_W * scale, h = L.CARD_H * scale;
    const face = `<use href="#card-${name}" x="${g(x)}" y="${g(y)}" width="${g(w)}" height="${g(h)}"/>`;
    if (!last) return face;
    return `${face}<rect class="last" x="${g(x)}" y="${g(y)}" width="${g(w)}" height="${g(h)}" rx="6"/>`;
  }

  function stateHead(x, y, i, short) {
    const centre = x + L.COLUMN_W / 2;
    return `<g>${text(centre, y + L.LINE, L.STATES[i], "head", "middle")}` +
      `${text(centre, y + 2 * L.LINE, short, "small", "middle")}</g>`;
  }

  function marker(x, y, number) {
    if (number === null) {
      return `<circle class="defeat" cx="${g(x)}" cy="${g(y)}" r="7"><title>${L.DEFEAT}</title></circle>`;
    }
    return `<g><title>${L.VICTORY.replace("{}", String(number))}</title>` +
      `<circle class="marker" cx="${g(x)}" cy="${g(y)}" r="10"/>` +
      `<text class="mark" x="${g(x)}" y="${g(y + 4)}">${number}</text></g>`;
  }

  function army(x, y, troops, last) {
    const [cards, css, formations, mark] = troops; // picture.Troops
    let out = `<g><rect x="${g(x + 4)}" y="${g(y)}" width="${L.COLUMN_W - 8}" ` +
      `height="${L.ROW_H - 6}" rx="8" fill="none"${css ? ` class="${css}"` : ""}/>`;
    const left = x + (L.COLUMN_W - L.CARD_W) / 2;
    cards.forEach((name, i) => { out += card(left, y + 6 + i * L.STRIP, name, last && i === cards.length - 1); });
    const centre = x + L.COLUMN_W / 2, lineY = y + 6 + L.CARD_H + 3 * L.STRIP + 12;
    formations.forEach((words, i) => { out += text(centre, lineY + i * 12, words, "small", "middle"); });
    if (mark !== null) out += marker(x + L.COLUMN_W - 14, y + 14, mark || null);
    return out + "</g>";
  }

  function hands(sc, top) {
    const height = L.CARD_H * L.HAND_CARD + 8;
    if (sc.hands === null) return [text(L.MARGIN, top + L.LINE, L.NO_DEAL, "dim")];
    const lines = sc.hands.map((hand, s) => {
      const y = top + s * height;
      let out = text(L.MARGIN, y + L.LINE, sc.handLabels[s]);
      if (typeof hand === "string") {
        out += text(L.MARGIN + L.LABEL_W, y + L.LINE, hand, "dim");
      } else {
        hand.forEach((name, i) => {
          out += card(L.MARGIN + L.LABEL_W + i * (L.CARD_W * L.HAND_CARD + 6), y, name, false, L.HAND_CARD);
        });
        if (!hand.length) out += text(L.MARGIN + L.LABEL_W, y + L.LINE, L.EMPTY_HAND, "dim");
      }
      return `<g>${out}</g>`;
    });
    const y = top + sc.seats * height;
    lines.push(text(L.MARGIN, y + L.LINE, sc.pile));
    return lines;
  }

  function draw(sc) {
    const gridTop = L.MARGIN + L.HEAD_H, rowsTop = gridTop + L.STATE_HEAD_H;
    const parts = [
      text(L.MARGIN, L.MARGIN + L.LINE, sc.heading.join(""), "head"),
      text(L.MARGIN, L.MARGIN + 2 * L.LINE + 4, sc.note, "small"),
    ];
    sc.labels.forEach((label, s) => parts.push(text(L.MARGIN, rowsTop + s * L.ROW_H + L.LINE, label, "head")));
    for (let i = 0; i < 5; i++) {
      const x = L.MARGIN + L.LABEL_W + i * L.COLUMN_W;
      parts.push(stateHead(x, gridTop, i, sc.stateHeads[i]));
      sc.armies[i].forEach((troops, s) => {
        const last = sc.played !== null && sc.played[0] === i && sc.played[1] === s;
        parts.push(army(x, rowsTop + s * L.ROW_H, troops, last));
      });
    }
    let y = rowsTop + sc.seats * L.ROW_H + L.LINE;
    for (let i = 0; i < 5; i++) {
      parts.push(text(L.MARGIN, y, sc.statuses[i]));
      y += L.LINE + 2;
    }
    y += Math.floor(L.LINE / 2);
    parts.push(...hands(sc, y));
    y += (sc.seats + 1) * (L.CARD_H * L.HAND_CARD + 8) + L.LINE;
    parts.push(text(L.MARGIN, y, sc.ending.join(""), sc.stopped ? "bad" : "head"));
    const width = L.MARGIN * 2 + L.LABEL_W + 5 * L.COLUMN_W, height = Math.trunc(y + L.MARGIN);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(sc.heading.join("")).replace(/"/g, "&quot;")}">` +
      `<rect width="100%" height="100%" fill="${L.BACKGROUND}"/>${parts.join("")}</svg>`;
  }

  // ---- when each state was decided, and the turning points (page.py `_decisions_json`) ----
  const STATE_NAMES = L.STATES.map((name) => name.slice(name.indexOf(" ") + 1)); // "A Antioch" -> "Antioch"
  const SHOWN_PLAYS = 3; // other plays a step list mark names; the step's detail names them all
  const seatName = (s) => INDEX.seats[s];
  const what = (target) => (target === null ? "the game" : STATE_NAMES[target]);

  // ["LH", "C"], ["F", "JT"] -> "LH C or F J/T", as plays are written
  function otherPlays(alternatives, most) {
    const words = alternatives.slice(0, most).map(([card, states]) =>
      `${card} ${states.length === 5 ? "anywhere" : states.split("").join("/")}`);
    const more = alternatives.length - words.length;
    if (more > 0) words.push(`${more} other card${more === 1 ? "" : "s"}`);
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
  }

  // an event in words, as `seat` may see it (null: every seat): another seat's hand is not named
  function sentence(event, seat, most = Infinity) {
    if (event[0] === "d") {
      const [, target, winner] = event;
      if (target === null) return winner === null ? "The game is decided" : `The game is decided: ${seatName(winner)} wins`;
      return winner === null ? `${what(target)} decided` : `${what(target)} decided: only ${seatName(winner)} can still win it`;
    }
    const [, target, loser, by, alternatives] = event;
    if (loser !== by) return `${seatName(by)} put ${what(target)} out of ${seatName(loser)}'s reach`;
    const words = `${seatName(loser)} gave away ${what(target)}`;
    if (alternatives === null || (seat !== null && seat !== by)) return words;
    if (!alternatives.length) return `${words} — no other play would have kept it`;
    return `${words} — ${otherPlays(alternatives, most)} would have kept it`;
  }

  function mark(event, seat, most) {
    const kind = event[0] === "l" ? "lost" : event[1] === null ? "game" : "decided";
    return el("span", { className: `v-mark v-mark-${kind}`, text: sentence(event, seat, most) });
  }

  const eventsAt = (rec, step) => (rec.data.decisions && rec.data.decisions.marks[step]) || [];

  function decidedSoFar(rec, step) {
    const found = rec.data.decisions;
    const done = [], open = [];
    found.states.forEach(([decided, winner], i) => {
      if (decided !== null && decided <= step) done.push(winner === null ? STATE_NAMES[i] : `${STATE_NAMES[i]} (${seatName(winner)})`);
      else open.push(STATE_NAMES[i]);
    });
    const [decided, winner] = found.game;
    const game = decided !== null && decided <= step
      ? `the game is decided${winner === null ? "" : `: ${seatName(winner)} wins`}`
      : "the game is open";
    return [done.length ? `Decided: ${done.join(", ")}` : "Nothing decided yet",
      open.length ? `open: ${open.join(", ")}` : "", game].filter(Boolean).join("; ") + ".";
  }

  function stepDetail(rec, step) {
    const box = $("v-decisions");
    box.hidden = !rec.data.decisions || rec.last < 0;
    if (box.hidden) return;
    $("v-decided").textContent = decidedSoFar(rec, step);
    $("v-turns").replaceChildren(...eventsAt(rec, step).map((event) => el("li", {}, mark(event, state.seat, Infinity))));
  }

  function decisionsTable(rec) {
    const found = rec.data.decisions;
    const when = (ply) => (ply === null ? "not in these plays" : ply === 0 ? "before the first play" : `ply ${ply}`);
    const table = el("table", { className: "v-decided-table" });
    table.append(el("caption", { text: found.deal
      ? "When each was decided (one seat alone could still win it)"
      : "When each was decided, against any cards: the record has no deal" }));
    const head = ["", "decided after", "winner", "resolved at"];
    table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    const rows = found.states.map(([decided, winner, resolved], i) => [L.STATES[i], decided, winner, when(resolved)]);
    rows.push(["the game", found.game[0], found.game[1], ""]);
    for (const [name, decided, winner, resolved] of rows) {
      const link = decided === null ? when(null) : el("a", { href: `#r${rec.number}/p${decided}`, text: when(decided) });
      body.append(el("tr", {}, el("th", { scope: "row", text: name }), el("td", {}, link),
        el("td", { text: winner === null ? "" : seatName(winner) }), el("td", { text: resolved })));
    }
    table.append(body);
    return table;
  }

  // ---- a record ----
  const records = new Map(); // number -> decoded record, the last few

  function record(number) {
    let rec = records.get(number);
    if (rec) return rec;
    const data = JSON.parse(document.getElementById(`r${number}`).textContent);
    const fields = [];
    let now = [];
    const value = (v) => (typeof v === "string" ? decode(v) : V[v]); // a string is cards
    for (const changed of data.steps) {
      now = now.slice();
      for (let k = 0; k < ALWAYS; k++) now[k] = value(changed[k]);
      for (let k = ALWAYS; k < changed.length; k += 2) now[changed[k]] = value(changed[k + 1]);
      fields.push(now);
    }
    const seats = fields.length ? (fields[0].length - SHARED) / (SEAT + 5 * ARMY) : 0;
    rec = { number, data, fields, seats, last: fields.length - 1 };
    if (records.size > 20) records.delete(records.keys().next().value);
    records.set(number, rec);
    return rec;
  }

  function sceneAt(rec, step, seat) {
    return seenBy(unflatten(rec.fields[step], rec.seats), seat);
  }

  // ---- the page ----
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("aria") || k.startsWith("data") || k === "role") node.setAttribute(k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), v);
      else node[k] = v;
    }
    node.append(...children);
    return node;
  };
  const FIXED_SEAT = INDEX.seat; // a seat's page: that seat's view only
  const state = { rec: null, step: 0, seat: FIXED_SEAT };

  function rowLabel(number) {
    const [source, index] = ROWS[number - 1];
    return `${V[source]} record ${index}`;
  }

  function openRecord(number) {
    const rec = record(number);
    const [, , players, date, event, verdict, valid] = ROWS[number - 1];
    $("v-title").textContent = `${rowLabel(number)}: ${V[players] || "?"}`;
    const meta = [V[date], V[event], V[verdict]].filter(Boolean).join(" · ");
    $("v-title").append(el("span", { className: valid ? "v-row-meta" : "v-row-meta v-row-bad", text: ` — ${meta}` }));
    $("v-slider").max = String(Math.max(rec.last, 0));
    $("v-slider").disabled = rec.last < 1;
    stepList(rec);
    summary(rec);
    const problems = rec.data.problems;
    $("v-problems-box").hidden = !problems.length;
    $("v-problems").textContent = problems.join("\n\n");
    seatSwitch(rec);
    for (const a of document.querySelectorAll("#v-list a")) {
      a.setAttribute("aria-current", a.dataset.record === String(number) ? "true" : "false");
    }
  }

  function stepList(rec) {
    const list = $("v-steps");
    list.replaceChildren();
    rec.data.plays.forEach((play, k) => {
      const words = k === 0 ? rec.fields[0][1][0] : V[play[0]];
      const button = el("button", { type: "button", dataStep: String(k) }, words);
      for (const comment of play.slice(1)) button.append(el("span", { className: "v-comment", text: V[comment] }));
      const events = eventsAt(rec, k);
      for (const event of events) button.append(mark(event, state.seat, SHOWN_PLAYS));
      list.append(el("li", events.length ? { className: "v-turning" } : {}, button));
    });
  }

  function summary(rec) {
    const box = $("v-summary");
    box.replaceChildren();
    const [rules, result, comments, states] = rec.data.summary;
    if (!rec.fields.length) return;
    const final = unflatten(rec.fields[rec.last], rec.seats);
    box.append(
      el("p", {}, el("strong", { text: "Players: " }), V[ROWS[rec.number - 1][2]]),
      el("p", {}, el("strong", { text: "Rules: " }), V[rules]),
      el("p", {}, el("strong", { text: "Result: " }), V[result]),
    );
    for (const c of comments) box.append(el("p", { className: "v-comment", text: V[c] }));
    if (states.length) box.append(markersTable(final, states));
    if (rec.data.decisions) box.append(decisionsTable(rec));
  }

  function markersTable(final, states) {
    const points = states.some(([, , , , ranks]) => ranks.some((r) => r[2] !== null));
    const table = el("table", { className: "v-markers" });
    table.append(el("caption", { text: "States in marker order" }));
    const head = ["marker", "place", "seat", "cards", "formations", "4th card", ...(points ? ["points"] : [])];
    table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    for (const [mark, s, ply, why, ranks] of states) {
      body.append(el("tr", {}, el("th", { scope: "row", text: `#${mark}` }),
        el("td", { colSpan: head.length - 1, text: `${L.STATES[s]}, ply ${ply}: ${V[why]}` })));
      ranks.forEach(([seat, fourth, pts, formations], place) => {
        const troops = final.armies[s][seat];
        body.append(el("tr", {}, el("td"), el("td", { text: String(place + 1) }),
          el("td", { text: final.labels[seat] }), el("td", { text: troops[0].join(" ") }),
          el("td", { text: V[formations] }), el("td", { text: `ply ${fourth}` }),
          ...(points ? [el("td", { text: pts === null ? "" : String(pts) })] : [])));
      });
    }
    table.append(body);
    return table;
  }

  function seatSwitch(rec) {
    const box = $("v-seats");
    box.replaceChildren();
    if (FIXED_SEAT !== null) {
      box.append(el("span", { text: `${INDEX.seats[FIXED_SEAT]}'s view: other hands are not in this page` }));
      return;
    }
    const choices = [[null, "All"]];
    for (let s = 0; s < rec.seats; s++) choices.push([s, INDEX.seats[s]]);
    if (state.seat !== null && state.seat >= rec.seats) state.seat = null;
    for (const [seat, name] of choices) {
      const button = el("button", { type: "button", ariaPressed: String(state.seat === seat), dataSeat: seat === null ? "" : String(seat), text: name });
      button.addEventListener("click", () => {
        state.seat = seat;
        markSeat();
        stepList(record(state.rec)); // the turning points name only that seat's other plays
        show(state.rec, state.step);
      });
      box.append(button);
    }
  }

  function markSeat() {
    for (const b of document.querySelectorAll("#v-seats button")) {
      b.setAttribute("aria-pressed", String(b.dataset.seat === (state.seat === null ? "" : String(state.seat))));
    }
  }

  function inSight(button) {
    // scrolls the step list only: scrollIntoView would scroll the page too
    const list = $("v-steps"), item = button.parentElement;
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    }
  }

  function keepFocus() {
    // the step list's focus follows the current step (one tab stop)
    if (document.activeElement && document.activeElement.closest("#v-steps")) {
      const current = document.querySelector("#v-steps [aria-current=step]");
      if (current) current.focus({ preventScroll: true });
    }
  }

  function show(number, step) {
    if (number < 1 || number > ROWS.length) return;
    if (number !== state.rec) {
      state.rec = number;
      openRecord(number);
    }
    const rec = record(number);
    const picture = $("v-picture");
    if (rec.last < 0) {
      state.step = 0;
      stepDetail(rec, 0);
      picture.replaceChildren(el("p", { text: "Nothing to replay: the header or the deal has errors (see Problems)." }));
      $("v-where").textContent = "";
    } else {
      state.step = Math.max(0, Math.min(step, rec.last));
      picture.innerHTML = draw(sceneAt(rec, state.step, state.seat));
      $("v-slider").value = String(state.step);
      $("v-where").textContent = `step ${state.step} of ${rec.last}`;
      stepDetail(rec, state.step);
      for (const b of document.querySelectorAll("#v-steps button")) {
        const current = b.dataset.step === String(state.step);
        b.tabIndex = current ? 0 : -1; // one stop for Tab: the arrows move within
        if (current) { b.setAttribute("aria-current", "step"); inSight(b); }
        else b.removeAttribute("aria-current");
      }
    }
    const hash = `#r${number}/p${state.step}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function fromHash() {
    const m = /^#r(\d+)(?:\/p(\d+))?$/.exec(location.hash);
    if (!m) return false;
    const number = Number(m[1]);
    if (number < 1 || number > ROWS.length) return false;
    show(number, m[2] === undefined ? record(number).last : Number(m[2]));
    return true;
  }

  // ---- the list of records ----
  let haystack = null; // each row's words, lower case, made on the first search

  function renderList() {
    const wanted = $("v-filter").value.trim().toLowerCase();
    if (wanted && haystack === null) {
      haystack = ROWS.map(([source, index, players, date, event, verdict]) =>
        [V[source], `record ${index}`, V[players], V[date], V[event], V[verdict]].join(" ").toLowerCase());
    }
    const list = $("v-list");
    const items = [];
    let matches = 0;
    for (let n = 1; n <= ROWS.length; n++) {
      if (wanted && !haystack[n - 1].includes(wanted)) continue;
      matches++;
      if (items.length >= SHOWN_ROWS) continue;
      const [source, index, players, date, event, verdict, valid] = ROWS[n - 1];
      const link = el("a", { href: `#r${n}`, dataRecord: String(n), ariaCurrent: String(n === state.rec) },
        el("span", { className: "v-row-players", text: V[players] || "?" }),
        el("span", { className: "v-row-meta", text: ` ${[V[date], V[event]].filter(Boolean).join(" · ")}` }),
        el("br"),
        el("span", { className: valid ? "v-row-meta" : "v-row-meta v-row-bad", text: V[verdict] }),
        el("span", { className: "v-row-meta", text: ` (${V[source]} #${index})` }));
      items.push(el("li", {}, link));
    }
    list.replaceChildren(...items);
    const of = wanted ? `${matches} of ${ROWS.length} records match` : `${ROWS.length} records`;
    $("v-count").textContent = matches > SHOWN_ROWS ? `${of}; the first ${SHOWN_ROWS} are listed` : of;
  }

  // ---- keys and controls ----
  function go(delta) { if (state.rec !== null) show(state.rec, state.step + delta); }

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (t instanceof HTMLInputElement && (t.type === "search" || t.type === "range")) return;
    const moves = { ArrowLeft: () => go(-1), ArrowRight: () => go(1), Home: () => go(-Infinity), End: () => go(Infinity) };
    const move = moves[e.key];
    if (move && state.rec !== null) { e.preventDefault(); move(); keepFocus(); }
  });
  $("v-first").addEventListener("click", () => go(-Infinity));
  $("v-prev").addEventListener("click", () => go(-1));
  $("v-next").addEventListener("click", () => go(1));
  $("v-last").addEventListener("click", () => go(Infinity));
  $("v-slider").addEventListener("input", (e) => show(state.rec, Number(e.target.value)));
  $("v-steps").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-step]");
    if (b) show(state.rec, Number(b.dataset.step));
  });
  $("v-filter").addEventListener("input", renderList);
  window.addEventListener("hashchange", fromHash);

  for (const text of INDEX.problems) $("v-inputs").append(el("li", { text }));
  renderList();
  if (!fromHash() && ROWS.length) show(1, record(1).last);
  $("v-loading").textContent = ROWS.length ? "" : "No records.";

  // for tests and the curious: draw any step of any record
  window.ordoView = { show, state, draw, scene: (n, step, seat) => sceneAt(record(n), step, seat) };
  document.body.dataset.ready = "";
})();

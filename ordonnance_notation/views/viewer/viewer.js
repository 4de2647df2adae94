"use strict";
// The page of `ordo view` (views/page.py writes the data). Each record holds
// its plies; the script replays them into each step's scene (picture.scene)
// by the engine's rules (engine/armies.py, Table.play), and lays a scene out
// as picture.draw lays it out in Python, element for element:
// tests/test_viewer.py compares the two for every step of a corpus of records.
(() => {
  const INDEX = JSON.parse(document.getElementById("index").textContent);
  const L = INDEX.layout;
  const R = INDEX.rules; // page.rules: the engine's icons, levels and words
  const SHOWN_ROWS = 200; // list items drawn at a time, and more at a click: the list of 10,000 stays quick
  const CARDS = INDEX.cards, CODES = INDEX.codes;
  const decode = (codes) => Array.from(codes, (c) => CARDS[CODES.indexOf(c)]);

  // the chunks of records, a block of a file each (page.Chunk): their tables of values and lines in the list
  const VALUES = []; // each record's table of values, by its number - 1
  const ROWS = []; // [source, index in file, players, date, event, verdict, valid]
  for (let k = 0; k < INDEX.chunks; k++) {
    const chunk = JSON.parse(document.getElementById(`c${k}`).textContent);
    const v = chunk.values;
    chunk.rows.forEach(([players, date, event, verdict, valid], i) => {
      ROWS.push([chunk.source, chunk.first + i, v[players], v[date], v[event], v[verdict], valid]);
      VALUES.push(v);
    });
  }

  // ---- the rules of a ply (engine/game.py Table.play, engine/armies.py) ----
  const seatName = (s) => INDEX.seats[s];
  const STATE_NAMES = L.STATES.map((name) => name.slice(name.indexOf(" ") + 1)); // "A Antioch" -> "Antioch"
  const UNITS = R.units;
  const MOST = R.levels[0][0]; // a regiment: the largest formation

  // armies.Formations.of: by level, most senior first, the icons (numbers) held at it
  function formations(cards) {
    const counts = [0, 0, 0, 0, 0];
    for (const name of cards) for (const letter of name) counts[R.icons.indexOf(letter)]++;
    return R.levels.map(([size]) => R.seniority.filter((icon) => Math.min(counts[icon], MOST) === size));
  }

  // armies.Army.strength, compared: > 0 when army a ranks above army b
  function stronger(a, b) {
    for (let l = 0; l < R.levels.length; l++) {
      const x = a.formations[l], y = b.formations[l];
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    }
    const fourth = (army) => (army.plies.length >= UNITS ? army.plies[UNITS - 1] : Infinity);
    return fourth(b) - fourth(a) || 0; // the earlier fourth card; two short armies tie
  }

  // armies.decide and Decision.explain: the step that ranks winner above loser, in words
  function decision(winner, loser) {
    const same = (x, y) => x.length === y.length && x.every((icon, i) => icon === y[i]);
    const level = winner.formations.findIndex((icons, l) => !same(icons, loser.formations[l]));
    return { winner, loser, level: level < 0 ? null : level };
  }

  function explain({ winner, loser, level }) {
    if (level === null) {
      const fourth = (army) => (army.plies.length >= UNITS ? army.plies[UNITS - 1] : "None");
      return `identical formations; ${seatName(winner.seat)} played the fourth card ` +
        `earlier, ply ${fourth(winner)} vs ${fourth(loser)}`;
    }
    const prefix = R.levels.slice(0, level)
      .map(([, , plural], l) => `${winner.formations[l].length ? "equal" : "no"} ${plural}; `).join("");
    const [, word, plural] = R.levels[level];
    const mine = winner.formations[level].length, theirs = loser.formations[level].length;
    if (mine !== theirs) {
      return `${prefix}${R.numbers[mine]} ${mine === 1 ? word : plural} beat${mine === 1 ? "s" : ""} ` +
        `${theirs ? R.numbers[theirs] : "none"}`;
    }
    const i = winner.formations[level].findIndex((icon, k) => icon !== loser.formations[level][k]);
    return `${prefix}${word} of ${R.plurals[winner.formations[level][i]]} beats ` +
      `${word} of ${R.plurals[loser.formations[level][i]]}`;
  }

  // Game.standing: the resolution's decision, or the one that would decide the state now
  function standing(armies) {
    if (!armies.some((army) => army.cards.length)) return null;
    const [first, second] = armies.slice().sort((a, b) => stronger(b, a)); // stable: rank
    return decision(first, second);
  }

  // board.leader: the seat that leads a state (found: its standing), its winner once
  // resolved; null while none does: no unit there, or level so far (board._level_so_far)
  function leader(found, resolved) {
    if (found === null) return null;
    const full = (army) => army.plies.length >= UNITS;
    const level = !resolved && found.level === null && !(full(found.winner) && full(found.loser));
    return level ? null : found.winner.seat;
  }

  // picture._state_short, board.state_status and picture._troops: a state's column
  function column(armies, i, resolved) {
    const found = standing(armies), ahead = leader(found, resolved);
    let head, status;
    if (resolved) {
      head = `marker ${resolved.marker}: ${seatName(ahead)}`;
      status = `marker ${resolved.marker} to ${seatName(ahead)} at ply ${resolved.ply}: ${explain(found)}`;
    } else if (found === null) {
      head = status = "no units yet";
    } else if (ahead === null) {
      head = "level so far";
      status = `${head}: identical formations`;
    } else {
      head = `${seatName(ahead)} ahead`;
      status = `${seatName(ahead)} would win now: ${explain(found)}`;
    }
    const troops = armies.map((army) => {
      const leads = army.seat === ahead;
      const lines = R.levels.flatMap(([, word], l) =>
        army.formations[l].length ? [`${word} ${army.formations[l].map((icon) => R.icons[icon]).join(" ")}`] : []);
      const css = leads ? (resolved ? "won" : "lead") : "";
      return [army.cards, css, lines, resolved ? (leads ? resolved.marker : 0) : null]; // picture.Troops
    });
    return [head, troops, `${L.STATES[i]}: ${status}`];
  }

  const cut = (line) => { // picture.note: at most L.NOTE characters
    const chars = Array.from(line);
    return chars.length <= L.NOTE ? line : chars.slice(0, L.NOTE - 1).join("") + "…";
  };

  // every step's scene (picture.scenes) from a record's plays (page.Plays)
  function replayed(plays, v) {
    const seats = plays.labels.length;
    const at = (map, ply) => (ply in map ? v[map[ply]] : "");
    const armies = R.states.map(() => Array.from({ length: seats }, (_, seat) => ({ seat, cards: [], plies: [], formations: formations([]) })));
    const resolved = R.states.map(() => null);
    const resolutions = [];
    let columns = R.states.map((_, i) => column(armies[i], i, null));
    let hands = plays.hands === null ? null : plays.hands.map((hand) => (typeof hand === "number" ? hand : decode(hand)));
    let pile = plays.pile;
    const last = plays.plies.length / 3;
    const markers = () => `markers: ${resolutions.map(([marker, i, seat]) => `#${marker} ${R.states[i]} ${seatName(seat)}`).join(", ") || "none yet"}`;
    const scene = (ply, play, drew, played, resolution) => ({
      heading: [`ply ${ply} of ${last}: `, play, drew, at(plays.glyphs, ply)], mover: played === null ? null : played[1], played,
      pile: `pile: ${pile} cards`, note: ply in plays.notes ? v[plays.notes[ply]] : cut(resolution),
      ending: ply === last && plays.ending !== null ? plays.ending.map((i) => v[i]) : [markers(), ""],
      stopped: Boolean(plays.stopped), stateHeads: columns.map((c) => c[0]), statuses: columns.map((c) => c[2]),
      labels: plays.labels.map((i) => v[i]), handLabels: plays.hand_labels.map((i) => v[i]),
      hands, armies: columns.map((c) => c[1]), seats,
    });
    const scenes = [scene(0, "before the first play", "", null, "")];
    for (let ply = 1; ply <= last; ply++) {
      const [code, letter, drawn] = plays.plies.slice(3 * ply - 3, 3 * ply); // page._plays_json
      const card = decode(code)[0], seat = (ply - 1) % seats, i = R.states.indexOf(letter);
      const draw = drawn === "." ? null : drawn === "?" ? "?" : decode(drawn)[0];
      if (hands !== null) {
        hands = hands.slice();
        const hand = hands[seat];
        if (typeof hand === "number") hands[seat] = hand + (draw === null ? 0 : 1) - 1;
        else {
          const held = draw === null ? hand.slice() : hand.concat(draw);
          held.splice(held.indexOf(card), 1);
          hands[seat] = held;
        }
        if (draw !== null) pile--;
      }
      const army = armies[i][seat];
      army.cards = army.cards.concat(card);
      army.plies = army.plies.concat(ply);
      army.formations = formations(army.cards);
      let resolution = ""; // picture.note, for a play without comments
      if (armies[i].every((a) => a.cards.length >= UNITS)) {
        const marker = resolutions.length + 1, found = standing(armies[i]);
        resolved[i] = { marker, ply };
        resolutions.push([marker, i, found.winner.seat]);
        resolution = `${STATE_NAMES[i]} resolved: marker ${marker} to ${seatName(found.winner.seat)}, ${explain(found)}`;
      }
      columns = columns.slice();
      columns[i] = column(armies[i], i, resolved[i]);
      const play = `${seatName(seat)} plays ${card} to ${STATE_NAMES[i]}`;
      scenes.push(scene(ply, play, draw === null || draw === "?" ? "" : `, after drawing ${draw}`, [i, seat], resolution));
    }
    return scenes;
  }

  // picture.seen_by
  function seenBy(sc, seat) {
    if (seat === null) return sc;
    const seen = sc.mover === null || sc.mover === seat;
    const hands = sc.hands === null ? null : sc.hands.map((hand, s) =>
      s === seat || typeof hand === "string" ? hand
        : L.HIDDEN_HAND.replace("{}", String(typeof hand === "number" ? hand : hand.length))); // a size: a seat's page
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
        out += text(L.MARGIN + L.HAND_LABEL_W, y + L.LINE, hand, "dim");
      } else {
        hand.forEach((name, i) => {
          out += card(L.MARGIN + L.HAND_LABEL_W + i * (L.CARD_W * L.HAND_CARD + 6), y, name, false, L.HAND_CARD);
        });
        if (!hand.length) out += text(L.MARGIN + L.HAND_LABEL_W, y + L.LINE, L.EMPTY_HAND, "dim");
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
  const SHOWN_PLAYS = 3; // other plays a step list mark names; the step's detail names them all
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
  // views/analysis.WhenDecided.ended: every state resolved, the game is over, and
  // decided as it ended at the latest (the analysis lets a tie-break go either way)
  const ended = (found) => found.states.every(([, , resolved]) => resolved !== null);

  function decidedSoFar(rec, step) {
    const found = rec.data.decisions;
    const done = [], open = [];
    found.states.forEach(([decided, winner], i) => {
      if (decided !== null && decided <= step) done.push(winner === null ? STATE_NAMES[i] : `${STATE_NAMES[i]} (${seatName(winner)})`);
      else open.push(STATE_NAMES[i]);
    });
    const [decided, winner] = found.game;
    let game = "the game is open";
    if (decided !== null && decided <= step) game = `the game is decided${winner === null ? "" : `: ${seatName(winner)} wins`}`;
    else if (decided === null && ended(found) && step === rec.last) game = "the game was decided only as it ended";
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
    const asEnded = found.game[0] === null && ended(found);
    rows.push(["the game", asEnded ? rec.last : found.game[0], found.game[1], ""]);
    for (const [name, decided, winner, resolved] of rows) {
      const words = when(decided) + (asEnded && name === "the game" ? ", as it ended" : "");
      const link = decided === null ? words : el("a", { href: `#r${rec.number}/p${decided}`, text: words });
      body.append(el("tr", {}, el("th", { scope: "row", text: name }), el("td", {}, link),
        el("td", { text: winner === null ? "" : seatName(winner) }), el("td", { text: resolved })));
    }
    table.append(body);
    return table;
  }

  // ---- best play (views/bestplay.py `for_page`): a cell a step, who wins with best play ----
  function bestWords(rec, k) {
    const best = rec.data.best, v = rec.v;
    const winner = best.winners[k];
    let words = winner === null || winner === undefined ? "not solved within the budget"
      : winner < 0 ? "no seat can force a win" : `${seatName(winner)} wins with best play`;
    const states = best.states && best.states[k];
    const counted = (n) => `${n} state${n === 1 ? "" : "s"}`;
    if (states && states[0] === states[1]) words += ` (P1 ${counted(states[0])}, P2 ${5 - states[0]})`;
    else if (states) words += ` (P1 ${states[0]} to ${states[1]} states)`;
    const m = best.mistakes.find((x) => x[0] === k);
    if (m) {
      const [, seat, lost, given, kept] = m;
      words += `; ${seatName(seat)}'s play ${lost ? "lost the win" : `gave away ${given} state${given === 1 ? "" : "s"}`}`;
      const named = kept.slice(0, SHOWN_PLAYS).map((i) => v[i]);
      const more = kept.length - named.length;
      if (named.length) words += ` (${named.join(", ")}${more > 0 ? ` or ${more} other play${more === 1 ? "" : "s"}` : ""} would have kept it)`;
    }
    return `${k === 0 ? "Before the first play" : `After step ${k}`}: ${words}.`;
  }

  function bestStrip(rec) {
    const box = $("v-best");
    const best = rec.data.best;
    box.hidden = !best || rec.last < 0;
    if (box.hidden) return;
    $("v-best-story").textContent = rec.v[best.story];
    const mistakes = new Set(best.mistakes.map((m) => m[0]));
    $("v-strip").replaceChildren(...best.winners.map((winner, k) => {
      const kind = winner === null ? "unknown" : winner < 0 ? "none" : `p${winner + 1}`;
      const words = bestWords(rec, k);
      const cell = el("button", { type: "button", className: `v-cell v-cell-${kind}${mistakes.has(k) ? " v-cell-mistake" : ""}`,
        dataStep: String(k), ariaLabel: words, title: words }, mistakes.has(k) ? "✗" : "");
      return el("li", {}, cell);
    }));
  }

  function bestStep(rec, step) {
    if (!rec.data.best || rec.last < 0) return;
    $("v-best-step").textContent = step < rec.data.best.winners.length ? bestWords(rec, step) : "";
    for (const b of document.querySelectorAll("#v-strip button")) {
      if (b.dataset.step === String(step)) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    }
  }

  // ---- the judgement (views/judgement.py `for_page`): each seat's win chance as it saw it ----
  const GRAPH = { width: 600, height: 150, pad: 6 };
  const SVG = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs = {}) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };

  function judgedGraph(rec) {
    const box = $("v-judged");
    const judged = rec.data.judged;
    box.hidden = !judged || rec.last < 0;
    if (box.hidden) return;
    const v = rec.v;
    $("v-judged-said").textContent = v[judged.said];
    $("v-judged-accuracy").textContent = judged.accuracy === undefined ? "" : v[judged.accuracy];
    const steps = Math.max(judged.chances.length - 1, 1);
    const x = (k) => GRAPH.pad + (k / steps) * (GRAPH.width - 2 * GRAPH.pad);
    const y = (c) => GRAPH.pad + (1 - c / 1000) * (GRAPH.height - 2 * GRAPH.pad);
    const chart = svg("svg", { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, role: "img",
      "aria-label": "Each seat's win chance over the steps, as it could know it" });
    for (const c of [0, 500, 1000]) {
      chart.append(svg("line", { x1: x(0), x2: x(steps), y1: y(c), y2: y(c), class: c === 500 ? "v-graph-half" : "v-graph-rule" }));
    }
    const seats = judged.chances.length ? judged.chances[0].length : 0;
    for (let seat = 0; seat < seats; seat++) {
      const points = [];
      judged.chances.forEach((row, k) => { if (row[seat] !== null) points.push(`${x(k)},${y(row[seat])}`); });
      if (points.length) chart.append(svg("polyline", { points: points.join(" "), class: `v-graph-line v-graph-p${seat + 1}` }));
    }
    for (const [ply, seat, grade, said] of judged.graded) {
      const dot = svg("circle", { cx: x(ply), cy: y(judged.chances[ply][seat]), r: grade === "blunder" ? 6 : grade === "mistake" ? 5 : 4,
        class: `v-graph-dot v-graph-p${seat + 1} v-grade-${grade}`, "data-step": String(ply) });
      const title = svg("title");
      title.textContent = v[said];
      dot.append(title);
      chart.append(dot);
    }
    chart.append(svg("line", { id: "v-graph-now", x1: x(0), x2: x(0), y1: 0, y2: GRAPH.height, class: "v-graph-now" }));
    $("v-graph").replaceChildren(chart);
    $("v-graph-legend").replaceChildren(
      ...Array.from({ length: seats }, (_, seat) => el("li", { className: `v-key v-key-p${seat + 1}`, text: `${seatName(seat)}'s win chance` })),
      ...["blunder", "mistake", "inaccuracy"].map((grade) => el("li", { className: `v-key v-key-${grade}`, text: grade })));
    $("v-graded-head").textContent = `The graded plays (${judged.graded.length})`;
    $("v-graded").replaceChildren(...judged.graded.map(([ply, , grade, said]) =>
      el("li", {}, el("button", { type: "button", className: `v-graded-${grade}`, dataStep: String(ply), text: v[said] }))));
    box.dataset.steps = String(steps);
  }

  function judgedStep(rec, step) {
    const judged = rec.data.judged;
    if (!judged || rec.last < 0) return;
    const steps = Number($("v-judged").dataset.steps);
    const now = document.getElementById("v-graph-now");
    const at = GRAPH.pad + (step / steps) * (GRAPH.width - 2 * GRAPH.pad);
    if (now) { now.setAttribute("x1", at); now.setAttribute("x2", at); }
    const row = judged.chances[step] || [];
    const known = row.map((c, seat) => (c === null ? null : `${seatName(seat)} ${Math.round(c / 10)}%`)).filter(Boolean);
    $("v-judged-step").textContent = known.length ? `${step === 0 ? "Before the first play" : `After step ${step}`}, as each saw it: ${known.join(", ")}.` : "";
  }

  // ---- a record ----
  const records = new Map(); // number -> decoded record, the last few

  function record(number) {
    let rec = records.get(number);
    if (rec) return rec;
    const data = JSON.parse(document.getElementById(`r${number}`).textContent);
    const v = VALUES[number - 1]; // page.Chunk
    const scenes = data.plays === null ? [] : replayed(data.plays, v);
    // the step list: each play as written, and its comments
    const plays = scenes.map((sc, k) => {
      if (k === 0) return [sc.heading[1]];
      const written = data.plays.written[k];
      if (written) return written.map((i) => v[i]);
      const seat = data.plays.seated ? `${seatName((k - 1) % scenes[0].seats)} ` : ""; // page.Plays
      return [`${seat}${decode(data.plays.plies[3 * k - 3])[0]} ${data.plays.plies[3 * k - 2]}`];
    });
    rec = { number, data, v, scenes, plays, seats: scenes.length ? scenes[0].seats : 0, last: scenes.length - 1 };
    if (records.size > 20) records.delete(records.keys().next().value);
    records.set(number, rec);
    return rec;
  }

  function sceneAt(rec, step, seat) {
    return seenBy(rec.scenes[step], FIXED_SEAT ?? seat); // a seat's page holds no other hand
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
    return `${source} record ${index}`;
  }

  function openRecord(number) {
    const rec = record(number);
    const [, , players, date, event, verdict, valid] = ROWS[number - 1];
    $("v-title").textContent = `${rowLabel(number)}: ${players || "?"}`;
    const meta = [date, event, verdict].filter(Boolean).join(" · ");
    $("v-title").append(el("span", { className: valid ? "v-row-meta" : "v-row-meta v-row-bad", text: ` — ${meta}` }));
    $("v-slider").max = String(Math.max(rec.last, 0));
    $("v-slider").disabled = rec.last < 1;
    stepList(rec);
    judgedGraph(rec);
    bestStrip(rec);
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
    rec.plays.forEach(([words, ...comments], k) => {
      const button = el("button", { type: "button", dataStep: String(k) }, words);
      for (const comment of comments) button.append(el("span", { className: "v-comment", text: comment }));
      const events = eventsAt(rec, k);
      for (const event of events) button.append(mark(event, state.seat, SHOWN_PLAYS));
      list.append(el("li", events.length ? { className: "v-turning" } : {}, button));
    });
  }

  function summary(rec) {
    const box = $("v-summary");
    box.replaceChildren();
    const [rules, result, comments, states] = rec.data.summary;
    if (!rec.scenes.length) return;
    const v = rec.v, final = rec.scenes[rec.last];
    box.append(
      el("p", {}, el("strong", { text: "Players: " }), ROWS[rec.number - 1][2]),
      el("p", {}, el("strong", { text: "Rules: " }), v[rules]),
      el("p", {}, el("strong", { text: "Result: " }), v[result]),
    );
    for (const c of comments) box.append(el("p", { className: "v-comment", text: v[c] }));
    if (states.length) box.append(markersTable(final, states, v));
    if (rec.data.decisions) box.append(decisionsTable(rec));
  }

  function markersTable(final, states, v) {
    const points = states.some(([, , , , ranks]) => ranks.some((r) => r[2] !== null));
    const table = el("table", { className: "v-markers" });
    table.append(el("caption", { text: "States in marker order" }));
    const head = ["marker", "place", "seat", "cards", "formations", "4th card", ...(points ? ["points"] : [])];
    table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    for (const [mark, s, ply, why, ranks] of states) {
      body.append(el("tr", {}, el("th", { scope: "row", text: `#${mark}` }),
        el("td", { colSpan: head.length - 1, text: `${L.STATES[s]}, ply ${ply}: ${v[why]}` })));
      ranks.forEach(([seat, fourth, pts, formations], place) => {
        const troops = final.armies[s][seat];
        body.append(el("tr", {}, el("td"), el("td", { text: String(place + 1) }),
          el("td", { text: final.labels[seat] }), el("td", { text: troops[0].join(" ") }),
          el("td", { text: v[formations] }), el("td", { text: `ply ${fourth}` }),
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
      judgedStep(rec, state.step);
      bestStep(rec, state.step);
      for (const b of document.querySelectorAll("#v-steps button")) {
        const current = b.dataset.step === String(state.step);
        b.tabIndex = current ? 0 : -1; // one stop for Tab: the arrows move within
        if (current) { b.setAttribute("aria-current", "step"); inSight(b); }
        else b.removeAttribute("aria-current");
      }
    }
    const hash = `#r${number}/p${state.step}`;
    // a page with no address of its own (a notebook's frame, about:srcdoc) has no link to keep
    if (location.hash !== hash && location.protocol !== "about:") history.replaceState(null, "", hash);
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
  let listed = SHOWN_ROWS; // the matches listed: SHOWN_ROWS more at each click of "List ... more"
  const counted = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

  function renderList() {
    const wanted = $("v-filter").value.trim().toLowerCase();
    if (wanted && haystack === null) {
      haystack = ROWS.map(([source, index, players, date, event, verdict]) =>
        [source, `record ${index}`, players, date, event, verdict].join(" ").toLowerCase());
    }
    const list = $("v-list");
    const items = [];
    let matches = 0;
    for (let n = 1; n <= ROWS.length; n++) {
      if (wanted && !haystack[n - 1].includes(wanted)) continue;
      matches++;
      if (items.length >= listed) continue;
      const [source, index, players, date, event, verdict, valid] = ROWS[n - 1];
      const link = el("a", { href: `#r${n}`, dataRecord: String(n), ariaCurrent: String(n === state.rec) },
        el("span", { className: "v-row-players", text: players || "?" }),
        el("span", { className: "v-row-meta", text: ` ${[date, event].filter(Boolean).join(" · ")}` }),
        el("br"),
        el("span", { className: valid ? "v-row-meta" : "v-row-meta v-row-bad", text: verdict }),
        el("span", { className: "v-row-meta", text: ` (${source} #${index})` }));
      items.push(el("li", {}, link));
    }
    list.replaceChildren(...items);
    const of = wanted ? `${matches} of ${counted(ROWS.length, "record")} match${matches === 1 ? "es" : ""}`
      : counted(ROWS.length, "record");
    $("v-count").textContent = matches > items.length ? `${of}; ${items.length} listed` : of;
    const rest = matches - items.length;
    $("v-more").hidden = rest <= 0;
    $("v-more").textContent = rest > SHOWN_ROWS ? `List ${SHOWN_ROWS} more` : `List the last ${rest}`;
  }

  function listMore() {
    listed += SHOWN_ROWS;
    renderList();
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
  for (const id of ["v-graph", "v-graded"]) {
    $(id).addEventListener("click", (e) => {
      const b = e.target.closest("[data-step]");
      if (b) show(state.rec, Number(b.dataset.step));
    });
  }
  $("v-strip").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-step]");
    if (b) show(state.rec, Number(b.dataset.step));
  });
  $("v-filter").addEventListener("input", () => { listed = SHOWN_ROWS; renderList(); });
  $("v-more").addEventListener("click", listMore);
  window.addEventListener("hashchange", fromHash);

  for (const text of INDEX.problems) $("v-inputs").append(el("li", { text }));
  renderList();
  if (!fromHash() && ROWS.length) show(1, record(1).last);
  $("v-loading").textContent = ROWS.length ? "" : "No records.";

  // for tests and the curious: draw any step of any record
  window.ordoView = { show, state, draw, scene: (n, step, seat) => sceneAt(record(n), step, seat) };
  document.body.dataset.ready = "";
})();

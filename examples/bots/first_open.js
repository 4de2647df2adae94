#!/usr/bin/env node
// A bot for ordo's bot protocol, version 1 (docs/bots.md), for Node.js with
// no package: it keeps its own hand and armies from what it is told, and
// plays its first card to the state where its army is smallest (ties: the
// first on the territory line) -- the same bot as first_open.py.
//
//     ordo match careful "node examples/bots/first_open.js" -n 10

const readline = require("readline");

const STATES = ["A", "C", "J", "E", "T"];
let hand = [];
let mine = {};
let seat = "";

function fresh() {
  hand = [];
  mine = Object.fromEntries(STATES.map((s) => [s, 0]));
}

fresh();
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "ordo":
      process.stdout.write("bot first-open (JavaScript)\n");
      break;
    case "game":
      fresh();
      break;
    case "seat":
      seat = words[1];
      break;
    case "hand":
      hand = words.slice(1);
      break;
    case "draw":
      hand.push(words[1]);
      break;
    case "go": {
      const open = STATES.filter((s) => mine[s] < 4);
      const state = open.reduce((best, s) => (mine[s] < mine[best] ? s : best));
      process.stdout.write(`play ${hand[0]} ${state}\n`);
      break;
    }
    case "play":
      if (words[1] === seat) {
        hand.splice(hand.indexOf(words[2]), 1);
        mine[words[3]] += 1;
      }
      break;
    case "end":
      process.stdout.write("ok\n");
      break;
    case "quit":
      process.exit(0);
  }
});
input.on("close", () => process.exit(0));

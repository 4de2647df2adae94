// Starts `ordo lsp` (pip install 'ordonnance-notation[lsp]') for .ord files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const [command, ...args] = vscode.workspace
    .getConfiguration("ordo")
    .get("command", ["ordo", "lsp"]);
  client = new LanguageClient(
    "ordo",
    "ordo lsp",
    { command, args },
    { documentSelector: [{ language: "ord" }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

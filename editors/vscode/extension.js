// Starts `rulesdsl lsp` for .rules files (the server does all the work).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const config = vscode.workspace.getConfiguration("rulesdsl");
  const server = {
    command: config.get("server.command", "rulesdsl"),
    args: config.get("server.args", ["lsp"]),
  };
  client = new LanguageClient("rulesdsl", "rulesdsl", server, {
    documentSelector: [{ scheme: "file", language: "rulesdsl" }],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

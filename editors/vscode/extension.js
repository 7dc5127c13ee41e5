'use strict';
// The celint extension: it runs `celint lsp` (the command named by the
// setting celint.path, with the arguments of celint.args) as a language
// server over standard input and output, for the YAML and JSON documents
// open in the editor, and restarts it when those settings change.

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The documents the server lints: YAML and JSON files, saved or not. */
const documentSelector = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'file', language: 'json' },
  { scheme: 'untitled', language: 'yaml' },
  { scheme: 'untitled', language: 'json' },
];

/** The server's command line, from the settings. */
function serverOptions() {
  const config = vscode.workspace.getConfiguration('celint');
  return {
    command: config.get('path', 'celint') || 'celint',
    args: ['lsp', ...config.get('args', [])],
  };
}

/** Starts a client for the current settings. */
async function start() {
  client = new LanguageClient('celint', 'celint', serverOptions(), { documentSelector });
  await client.start();
}

/** Stops the running client, if any. */
async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('celint.path') || e.affectsConfiguration('celint.args')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };

// ESLint for the web pages and their tests: `npm run lint` in tests/web, which runs
//   eslint --config tests/web/eslint.config.js "server/assets/**/*.js" "tests/web/**/*.js"
// from the repository root (given --config, ESLint ignores every file outside the folder it
// runs in, so it must start at the root to reach server/assets/). node_modules is ignored.
//
// - server/assets/**/*.js: the pages' ES modules, loaded in the browser by
//   `<script type="module" src="/assets/app/….js">` and importing one another (no classic
//   script, no globals shared between files); browser globals only. (client.html's inline
//   classic script is not linted: ESLint reads .js files only.)
// - server/assets/app/protocol.js is generated from the protocol crate
//   (`cargo run -- protocol js > server/assets/app/protocol.js`; tests/cli_protocol.rs fails
//   when it is stale): it is linted with the rest because it is clean; never fix it by hand.
// - tests/web/**/*.js: ES modules (package.json has "type": "module") run by node's test
//   runner; they also hold the functions that playwright sends to the page
//   (`page.evaluate(() => document…)`, `waitForFunction`), which run in the browser, so
//   they see browser globals as well as node's.

import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import globals from "globals";

// Patterns are relative to the repository root wherever ESLint is started.
const basePath = fileURLToPath(new URL("../..", import.meta.url));

export default [
  { basePath, ignores: ["**/node_modules/", "target/"] },
  { basePath, ...js.configs.recommended },
  {
    basePath,
    files: ["server/assets/**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.browser } },
  },
  {
    basePath,
    files: ["tests/web/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
  },
];

// The protocol console of /client: joins with the token of its link and shows every
// message as it arrives. In a file of its own: the pages' Content-Security-Policy runs no
// inline script.
// The page is served at /client, which is no endpoint: a seat's token joins /ws/seat unless
// the link names another (`&endpoint=monitor` or `watch`).
// The token is taken from the address into the tab's session storage (as the other pages'
// common.js does): out of view and out of the history, and a reload still joins.
const params = new URLSearchParams(location.hash.slice(1));
const KEY = "baoqi.token:/client";
if (params.has("token")) {
  try { sessionStorage.setItem(KEY, params.get("token")); } catch { /* this load only */ }
}
let token = params.get("token") || "";
try { token = token || sessionStorage.getItem(KEY) || ""; } catch { /* none kept */ }
params.delete("token");
history.replaceState(history.state, "", location.pathname + (params.size ? `#${params}` : ""));
const endpoint = params.get("endpoint") || "seat";
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + endpoint);
const log = document.getElementById("log");
function show(text) { const li = document.createElement("li"); li.textContent = text; log.prepend(li); }
ws.onopen = () => ws.send(JSON.stringify({v: 2, type: "hello", token}));
ws.onmessage = (m) => show(m.data);
ws.onclose = () => show("connection closed");
let n = 0;
document.getElementById("send").onsubmit = (e) => {
  e.preventDefault();
  try {
    const command = JSON.parse(document.getElementById("cmd").value);
    ws.send(JSON.stringify({v: 2, type: "command", id: "c" + (++n), command}));
  } catch (err) { show("not JSON: " + err); }
};

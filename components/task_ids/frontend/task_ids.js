/* The ids of the tasks this browser created, kept in its local storage (shared mode: each browser lists its own).
 * Renders nothing. Each render adds `add` and drops `forget`, then reports the list back to Python. */
(function () {
  "use strict";
  const KEY = "agentic-memory-bank.tasks";
  const ID = /^[A-Za-z0-9_-]{8,64}$/;
  let last = null;

  function post(type, data) {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, data || {}), "*");
  }

  function read() {
    try {
      const value = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(value) ? value.filter((id) => typeof id === "string" && ID.test(id)) : [];
    } catch (err) {
      return [];
    }
  }

  function render(args) {
    let ids = read();
    for (const id of args.add || []) if (ID.test(id) && !ids.includes(id)) ids.push(id);
    const forget = new Set(args.forget || []);
    ids = ids.filter((id) => !forget.has(id)).slice(-500);
    window.localStorage.setItem(KEY, JSON.stringify(ids));
    const text = JSON.stringify(ids);
    if (text !== last) {
      last = text;
      post("streamlit:setComponentValue", { value: ids, dataType: "json" });
    }
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (data && data.type === "streamlit:render") render(data.args || {});
  });
  post("streamlit:componentReady", { apiVersion: 1 });
  post("streamlit:setFrameHeight", { height: 0 });
})();

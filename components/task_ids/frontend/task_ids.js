/* The ids of the tasks this browser created, kept in its local storage (shared mode: each browser lists its own).
 * Renders nothing. Each render adds `add` and drops `forget`; it reports the list back to Python only where the page
 * asks (`report`) and Python's copy (`known`) differs, because each report is a full rerun of the page, and a full
 * rerun that starts while the browser asks for an upload's URLs drops the answer (Streamlit 1.67 clears its outgoing
 * queue on a new run): the file a user had just picked on that page would never arrive. */
(function () {
  "use strict";
  const KEY = "agentic-memory-bank.tasks";
  const ID = /^[A-Za-z0-9_-]{8,64}$/;

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
    const known = Array.isArray(args.known) ? JSON.stringify([...args.known].sort()) : null;
    if (args.report && JSON.stringify([...ids].sort()) !== known) {
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

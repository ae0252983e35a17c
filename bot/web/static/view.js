// The player view's live updates: the party's HTML comes from the server-sent events of the page's
// own address + "/events" (the server escapes everything in it). Without this script, the page
// reloads itself every few seconds instead.
"use strict";
(function () {
  var party = document.getElementById("party");
  var status = document.getElementById("status");
  if (!party || !status || !window.EventSource) {
    return;
  }
  var source = new EventSource(window.location.pathname.replace(/\/+$/, "") + "/events");
  function show(state) {
    status.textContent = status.getAttribute("data-" + state);
    status.className = state;
  }
  source.addEventListener("party", function (message) {
    party.innerHTML = message.data;
    show("live");
  });
  source.addEventListener("gone", function () {
    // The link was revoked: the page itself now answers "not found".
    source.close();
    window.location.reload();
  });
  source.addEventListener("open", function () {
    show("live");
  });
  source.addEventListener("error", function () {
    show("reconnecting");
    if (source.readyState === EventSource.CLOSED) {
      // Refused (too many requests, or the link is gone): try the whole page again a bit later.
      window.setTimeout(function () {
        window.location.reload();
      }, 5000);
    }
  });
})();

// The player view's live updates: the party's HTML comes from the server-sent events of the page's
// own address + "/events" (the server escapes everything in it). Without this script, the page
// reloads itself every few seconds instead.
//
// Only what changed is touched: each character is an <li data-key>, replaced only when its HTML
// differs, and a short sentence of what changed (its data-say) goes to the role="status" region.
// Nothing changed, nothing touched, nothing said (the first update after loading or reconnecting
// is usually the page itself). A stream cut for LOST_AFTER_MS shows and announces "connection lost";
// so does a stream left open with nothing on it (a frozen bot): the server sends an "alive" event
// every so often (its data: how often, in ms), and two of them missed, and a second, count as lost.
"use strict";
(function () {
  var LOST_AFTER_MS = 3000;
  var RETRY_MS = 5000;
  var silentMs = 31000; // until the server says how often it speaks
  var MANY = 3; // more characters changed at once than this: their names only
  var root = document.documentElement;
  var query = window.location.search;
  // ?overlay=1 (the server also says it on a page) and ?tv=1: the 404 page knows them only from here.
  if (/[?&]overlay=(1|true)(&|$)/.test(query)) {
    root.classList.add("overlay");
    document.body.classList.add("overlay");
  }
  if (/[?&]tv=(1|true)(&|$)/.test(query)) {
    root.classList.add("tv");
  }
  var party = document.getElementById("party");
  var status = document.getElementById("status");
  var said = document.getElementById("said");
  var banner = document.getElementById("connection");
  if (!party || !status || !said || !banner || !window.EventSource) {
    return;
  }
  var lostTimer = null;
  var lost = false;
  var silentTimer = null;
  var source = null;
  var sayTimer = null;

  function show(state) {
    if (status.className === state) {
      return;
    }
    status.textContent = status.getAttribute("data-" + state);
    status.className = state;
  }

  function say(text) {
    // Emptied first, then filled: the same sentence twice is still read twice.
    window.clearTimeout(sayTimer);
    said.textContent = "";
    sayTimer = window.setTimeout(function () {
      said.textContent = text;
    }, 100);
  }

  function keyOf(element) {
    return element.getAttribute("data-key") || element.tagName;
  }

  // The characters in `node` (an <li>, or a list of them), for `changes`: what to say of each.
  function report(node, changes, gone) {
    var items = node.tagName === "LI" ? [node] : node.querySelectorAll("li[data-key]");
    Array.prototype.forEach.call(items, function (item) {
      var name = item.querySelector(".name");
      name = name ? name.textContent : "";
      var text = gone
        ? said.getAttribute("data-gone").replace("{name}", name)
        : item.getAttribute("data-say");
      changes.push({ name: name, text: text });
    });
  }

  // Make the children of `old` those of `fresh`, by key, touching only those that differ; the
  // characters that came, changed or went are added to `changes`.
  function patch(old, fresh, changes) {
    var before = {};
    var child;
    for (child = old.firstElementChild; child; child = child.nextElementSibling) {
      before[keyOf(child)] = child;
    }
    var wanted = Array.prototype.slice.call(fresh.children);
    var kept = {};
    wanted.forEach(function (next, index) {
      var key = keyOf(next);
      var current = before[key];
      kept[key] = true;
      if (!current) {
        current = next;
        report(next, changes, false);
      } else if (current.outerHTML !== next.outerHTML) {
        if (current.tagName === "UL" && next.tagName === "UL") {
          patch(current, next, changes);
          if (current.className !== next.className) {
            current.className = next.className;
          }
        } else {
          old.replaceChild(next, current);
          report(next, changes, false);
          current = next;
        }
      }
      if (old.children[index] !== current) {
        old.insertBefore(current, old.children[index] || null);
      }
    });
    Object.keys(before).forEach(function (key) {
      if (!kept[key]) {
        report(before[key], changes, true);
        old.removeChild(before[key]);
      }
    });
  }

  function summary(changes) {
    if (changes.length <= MANY) {
      return changes
        .map(function (change) {
          return change.text;
        })
        .join(" ");
    }
    var names = changes.map(function (change) {
      return change.name;
    });
    return said.getAttribute("data-changed").replace("{names}", names.join(", "));
  }

  function update(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var changes = [];
    patch(party, template.content, changes);
    if (changes.length) {
      say(summary(changes));
    }
  }

  function connected() {
    window.clearTimeout(lostTimer);
    lostTimer = null;
    show("live");
    if (lost) {
      lost = false;
      banner.textContent = "";
      document.body.classList.remove("lost");
      say(said.getAttribute("data-back"));
    }
  }

  function lose() {
    lostTimer = null;
    if (!lost) {
      lost = true;
      show("lost");
      document.body.classList.add("lost");
      banner.textContent = banner.getAttribute("data-lost");
    }
  }

  function heard() {
    window.clearTimeout(silentTimer);
    silentTimer = window.setTimeout(silent, silentMs);
  }

  function silent() {
    // Open, but nothing for too long: shown as lost, and asked again on a new connection.
    silentTimer = null;
    window.clearTimeout(lostTimer);
    lose();
    source.close();
    connect();
  }

  function connect() {
    var mine = new EventSource(window.location.pathname.replace(/\/+$/, "") + "/events");
    source = mine;
    heard();
    mine.addEventListener("party", function (message) {
      update(message.data);
      heard();
      connected();
    });
    mine.addEventListener("alive", function (message) {
      var every = parseInt(message.data, 10);
      if (every > 0) {
        silentMs = 2 * every + 1000;
      }
      heard();
      connected();
    });
    mine.addEventListener("gone", function () {
      // The link was revoked: the page itself now answers "not found".
      mine.close();
      window.location.reload();
    });
    mine.addEventListener("error", function () {
      if (!lost) {
        show("reconnecting");
      }
      if (lostTimer === null && !lost) {
        lostTimer = window.setTimeout(lose, LOST_AFTER_MS);
      }
      if (mine.readyState === EventSource.CLOSED) {
        window.clearTimeout(silentTimer); // the retries below take over
        silentTimer = null;
        // Refused (too many requests, the database away, or the link is gone): ask for the page
        // again a bit later; reload it once it answers (the live page, or its 404).
        window.setTimeout(retry, RETRY_MS);
      }
    });
  }

  function retry() {
    window
      .fetch(window.location.href, { method: "HEAD", cache: "no-store" })
      .then(function (response) {
        if (response.status === 200 || response.status === 404) {
          window.location.reload();
        } else {
          window.setTimeout(retry, RETRY_MS);
        }
      })
      .catch(function () {
        window.setTimeout(retry, RETRY_MS);
      });
  }

  connect();
})();

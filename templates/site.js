// The front door's search: results as you type, with exactly the API's
// semantics (the search client above this script is the site's search.js).
// Over HTTP it fetches the sharded index; opened from disk (file://, where
// browsers refuse to fetch local files) it loads the same files as scripts
// (each search/{digest}.js calls ontositeSearchFile; the manifest's script
// is ui/search-index.js), each only when a query needs it.
(function () {
  "use strict";

  // From disk: a file of the index is a <script> that calls
  // ontositeSearchFile with its path and content.
  var root = new URL(".", location.href).href;
  var waiting = {};
  window.ontositeSearchFile = function (path, content) {
    var wait = waiting[path];
    delete waiting[path];
    if (wait) wait.resolve(content);
  };
  function loadScript(url) {
    var path = String(url).slice(root.length);
    return new Promise(function (resolve, reject) {
      waiting[path] = { resolve: resolve };
      var script = document.createElement("script");
      script.src = path === "search-index.json" ? "ui/search-index.js" : path;
      script.onload = function () {
        script.remove();
        if (waiting[path]) {
          delete waiting[path];
          reject(new Error(script.src + " did not hold " + path));
        }
      };
      script.onerror = function () {
        script.remove();
        delete waiting[path];
        reject(new Error(script.src + " could not be loaded"));
      };
      document.head.appendChild(script);
    });
  }

  var opened = null;
  function open() {
    if (opened) return opened;
    var options = location.protocol === "file:" ? { fetch: loadScript } : {};
    opened = ontositeSearch.openIndex(new URL("search-index.json", location.href), options);
    opened.catch(function () { opened = null; });
    return opened;
  }

  tryIt();
  copyButtons();
  followHash();
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("results");
  if (!input || !status || !list) return;
  // Results appear as one types; Enter sends nothing. (A listener, not an
  // inline handler: the pages' Content-Security-Policy allows no inline
  // script.)
  if (input.form) input.form.addEventListener("submit", function (event) { event.preventDefault(); });

  function item(entry) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = entry.slug + ".html";
    a.textContent = entry.name;
    a.dataset.slug = entry.slug;
    var id = document.createElement("span");
    id.className = "id";
    id.textContent = entry.id;
    var type = document.createElement("span");
    type.className = "type";
    type.textContent = entry.type;
    li.append(a, " ", type, id);
    if (entry.summary) {
      var summary = document.createElement("p");
      summary.className = "summary";
      summary.textContent = entry.summary;
      li.append(summary);
    }
    return li;
  }

  // "More results": the next page of the same query, added to the list.
  var more = document.getElementById("more");
  var next = null;
  function counted(total, shown) {
    return total + (total === 1 ? " entity matches" : " entities match") +
      (total > shown ? "; the first " + shown + " are shown." : ".");
  }
  if (more) {
    more.addEventListener("click", function () {
      var from = next;
      if (!from) return;
      var ticket = latest;
      more.disabled = true;
      open()
        .then(function (index) { return index.search(new URLSearchParams({ q: from.text, offset: String(from.offset) })); })
        .then(function (answer) {
          if (ticket !== latest) return;
          var first = list.children.length;
          list.append.apply(list, answer.items.map(item));
          status.textContent = counted(answer.total, list.children.length);
          setNext(from.text, answer);
          // The reader carries on from the first new result.
          var added = list.children[first];
          if (added) added.querySelector("a").focus();
        })
        .catch(function (error) { status.textContent = "Search failed: " + error; })
        .finally(function () { more.disabled = false; });
    });
  }
  function setNext(text, answer) {
    var shown = answer ? answer.offset + answer.items.length : 0;
    next = answer && shown < answer.total ? { text: text, offset: shown } : null;
    if (more) more.hidden = next === null;
  }

  // Answers may arrive out of order while typing: only the latest counts.
  var latest = 0;
  function search() {
    var text = input.value;
    var ticket = ++latest;
    if (!text.trim()) {
      show([], text, "Type to search; results appear as you type.");
      return;
    }
    // The first results are shown as soon as they are at hand, when the
    // rest of the page needs another round of requests; the list is
    // marked partial until the whole answer replaces it.
    var first = function (answer) {
      if (ticket !== latest) return;
      show(answer.items, text, counted(answer.total, answer.items.length) + " Loading the rest…", answer.total, true);
    };
    open()
      .then(function (index) { return index.search(new URLSearchParams({ q: text }), { first: first }); })
      .then(function (answer) {
        if (ticket !== latest) return;
        show(answer.items, text, answer.total === 0
          ? "No entity matches “" + text + "”."
          : counted(answer.total, answer.items.length),
          answer.total);
        setNext(text, answer);
      })
      .catch(function (error) {
        if (ticket !== latest) return;
        // A query without letters or digits is the reader's to fix, as the
        // API's 400 says; anything else is the page's failure.
        show([], text, error && error.name === "SearchError" ? "Type a letter or a digit: " + error.message : "Search failed: " + error);
      });
  }

  // The list, its status line, and what they answer (for tests and tools).
  function show(items, text, message, total, partial) {
    setNext(text, null);
    list.replaceChildren.apply(list, items.map(item));
    if (partial) list.dataset.partial = "true"; else delete list.dataset.partial;
    list.dataset.query = text;
    if (total === undefined) delete list.dataset.total; else list.dataset.total = String(total);
    status.textContent = message;
  }
  input.addEventListener("input", search);
  // The manifest loads with the page, so that the first keystroke waits
  // only for the files it needs.
  open().catch(function () {});

  // Arrow keys move between the box and the results; Escape clears.
  function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }
  document.addEventListener("keydown", function (event) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (event.key === "ArrowDown" && (document.activeElement === input || at >= 0) && all.length) {
      event.preventDefault();
      all[Math.min(at + 1, all.length - 1)].focus();
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      if (at === 0) input.focus(); else all[at - 1].focus();
    } else if (event.key === "Escape" && document.activeElement === input) {
      input.value = "";
      search();
    }
  });
  if (input.value) search();

  // "Try it" on the API's operations: sends the request and shows the
  // answer. From disk a page cannot send requests: a search is answered by
  // the search client (the API's answer, exactly), anything else is
  // offered as the file it is.
  function tryIt() {
    Array.prototype.forEach.call(document.querySelectorAll("form.try"), function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var out = form.querySelector(".answer");
        var path = form.dataset.path;
        var params = new URLSearchParams();
        Array.prototype.forEach.call(form.querySelectorAll("input"), function (field) {
          var placeholder = "{" + field.name + "}";
          if (path.indexOf(placeholder) >= 0) path = path.replace(placeholder, encodeURIComponent(field.value));
          else params.set(field.name, field.value);
        });
        var query = params.toString();
        var url = new URL(path + (query ? "?" + query : ""), root).href;
        out.textContent = "GET " + url + " …";
        var answered;
        if (location.protocol !== "file:") {
          answered = fetch(url, { headers: { Accept: form.dataset.accept } }).then(function (response) {
            return response.text().then(function (body) {
              return { status: response.status, type: response.headers.get("Content-Type") || "", body: body };
            });
          });
        } else if (form.dataset.path === "search") {
          answered = open().then(function (index) { return index.search(params); }).then(function (answer) {
            return { status: 200, type: "application/json", body: JSON.stringify(answer) };
          }, function (error) {
            if (!error || error.name !== "SearchError") throw error;
            return { status: 400, type: "application/problem+json", body: JSON.stringify(error.problem) };
          });
        } else {
          var link = document.createElement("a");
          link.href = path.indexOf(".") >= 0 ? path : path + ".html";
          link.textContent = link.getAttribute("href");
          out.replaceChildren("A page opened from disk cannot send requests; the answer is the file ", link, ".");
          return;
        }
        answered.then(function (answer) {
          var body = answer.body;
          if (/json/.test(answer.type)) {
            try { body = JSON.stringify(JSON.parse(body), null, 2); } catch (e) { /* shown as it came */ }
          }
          if (body.length > 100000) body = body.slice(0, 100000) + "\n…";
          var head = document.createElement("p");
          head.textContent = answer.status + " · " + (answer.type || "no Content-Type");
          var pre = document.createElement("pre");
          pre.tabIndex = 0;
          var code = document.createElement("code");
          code.textContent = body;
          pre.append(code);
          out.replaceChildren(head, pre);
        }, function (error) {
          out.textContent = "The request failed: " + error;
        });
      });
    });
  }

  // A hash document (/pato, where every pato#… IRI arrives): the term its
  // fragment names opens its own page, in place of this one in history.
  // The fragment as written, else decoded (`#a%20b`), among the terms
  // only: the layout's own ids (`main`) are not terms.
  function followHash() {
    var terms = document.querySelector("[data-follow-hash]");
    if (!terms || location.hash.length < 2) return;
    var written = location.hash.slice(1);
    var names = [written];
    try {
      names.push(decodeURIComponent(written));
    } catch (error) {
      // Not percent-encoding: the fragment as written alone.
    }
    for (var i = 0; i < names.length; i++) {
      var term = terms.querySelector('li[id="' + CSS.escape(names[i]) + '"] > a[href]');
      if (term) {
        location.replace(term.href);
        return;
      }
    }
  }

  // A Copy button beside each IRI and curl line: one click, then paste.
  // Without the clipboard (some browsers refuse it on file://) the text is
  // selected instead, ready for Ctrl+C.
  function copyButtons() {
    Array.prototype.forEach.call(document.querySelectorAll(".iri code.copy, pre > code.copy"), function (code) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-button";
      button.textContent = "Copy";
      button.addEventListener("click", function () {
        var done = function () { button.textContent = "Copied"; };
        var select = function () {
          var range = document.createRange();
          range.selectNodeContents(code);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          button.textContent = "Selected: press Ctrl+C";
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(code.textContent).then(done, select);
        } else {
          select();
        }
      });
      var place = code.parentElement.tagName === "PRE" ? code.parentElement : code;
      place.insertAdjacentElement("afterend", button);
    });
  }
})();
